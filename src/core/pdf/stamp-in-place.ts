/**
 * The stamp step's fast path: the stamp drawn on a PDF of the shape Chromium and pdf-lib's
 * saves write (classic-pdf.ts) without parsing the rest of it. A 100-page tagged report is tens
 * of thousands of structure objects; pdf-lib's load and save of all of them took 3.5 s, where
 * this reads the page tree alone and copies every other object byte for byte (bench/README.md).
 *
 * Each stamped page's dictionary is written again in its place with
 * - /Contents `[q, <the page's own streams>, <the stamp>]`: Chromium's content opens with a
 *   transform it never undoes, so it is wrapped in q ... Q and the stamp is drawn after the Q,
 *   inside `/Artifact BMC ... EMC`, as pdf-lib's path draws it;
 * - /Resources with the stamp's form XObject and its opacity's ExtGState added (inherited
 *   resources are written into the page, a referenced sub-dictionary inline).
 * The stamp's own objects (the form XObject and what it uses, the opacity, the `q` stream) and
 * each page's stamp stream (one a page, as pdf-lib's path writes, so each page's drawing is its
 * own artifact) are new objects after the file's own, made by pdf-lib in an
 * empty document numbered from the file's /Size on. Nothing else changes: the catalog, the
 * structure tree, the outline and every page's /StructParents are the same bytes.
 *
 * Why not an incremental update (as sign/ appends): the steps after the stamp read the file
 * as one table (compactTags's object streams skip a file with an update section, and
 * limits/pdf-pages.ts would count each page's old and new dictionaries).
 */
import type { PDFDocument, PDFRef } from '@cantoo/pdf-lib';
import { entryValue, objectDictionary, objectValueAt, readClassicPdf, readDictionary, refNumber, Shape, trailerObject, unexpected, writeClassicPdf, writeDictionary, type ClassicPdf, type Entry } from './classic-pdf.js';
import type { PdfLib } from './pdf-lib.js';
import { stampPageIndexes } from './stamp-pages.js';

export interface Box {
  width: number;
  height: number;
}

/** Where to draw a stamp on one page: pdf-lib's drawPage arguments (rotation about x, y). */
export interface Placement {
  x: number;
  y: number;
  scale: number;
  degrees: number;
}

/** The stamp as embedded in a document: its form XObject and natural size. */
export interface EmbeddedStamp {
  ref: PDFRef;
  width: number;
  height: number;
}

export interface InPlaceStamp {
  /** stamp-pages.ts's syntax, as checked. */
  pages: string;
  opacity: number;
  /** Where the stamp goes on a page of `page` size. */
  place: (page: Box, natural: Box) => Placement;
  /** The stamp embedded into `doc` (the caller's errors, for a stamp that cannot be used). */
  embed: (doc: PDFDocument) => Promise<EmbeddedStamp>;
}

interface Leaf {
  n: number;
  entries: Entry[];
  /** The page's /Resources and /MediaBox, its own or its nearest ancestor's (source text). */
  resources?: string;
  mediaBox?: string;
}

const REF = /^(\d+)\s+0\s+R$/;
const isRef = (source: string) => REF.test(source);

/** The page tree's leaves in page order, with what they inherit. */
function pageLeaves(file: ClassicPdf): Leaf[] {
  const catalog = objectDictionary(file, trailerObject(file, 'Root'));
  const leaves: Leaf[] = [];
  const seen = new Set<number>();
  const visit = (n: number, inherited: { resources?: string; mediaBox?: string }) => {
    if (seen.has(n)) unexpected('a page tree with a cycle');
    seen.add(n);
    const entries = objectDictionary(file, n);
    const own = { resources: entryValue(entries, 'Resources') ?? inherited.resources, mediaBox: entryValue(entries, 'MediaBox') ?? inherited.mediaBox };
    const type = entryValue(entries, 'Type');
    if (type === '/Page') return void leaves.push({ n, entries, ...own });
    if (type !== '/Pages') unexpected(`a page tree node of type ${type}`);
    const kids = entryValue(entries, 'Kids') ?? unexpected('a page tree node without kids');
    if (!kids.startsWith('[')) unexpected('indirect kids');
    for (const kid of kids.slice(1, -1).matchAll(/(\d+)\s+(\d+)\s+R/g)) visit(Number(kid[1]), own);
  };
  visit(refNumber(entryValue(catalog, 'Pages')), {});
  return leaves;
}

/** An inline dictionary's entries, or a referenced one's; none when absent. */
function dictionaryEntries(file: ClassicPdf, source: string | undefined): Entry[] {
  if (source === undefined) return [];
  if (isRef(source)) return objectDictionary(file, refNumber(source));
  return readDictionary(source, 0).entries;
}

/** The object numbers of a page's content streams (a reference, an array, or a referenced array). */
function contentRefs(file: ClassicPdf, source: string | undefined): string[] {
  if (source === undefined) return [];
  let array = source;
  if (isRef(source)) {
    const at = objectValueAt(file, refNumber(source));
    if (file.text[at] !== '[') return [source];
    array = file.text.slice(at, file.text.indexOf(']', at) + 1);
  }
  if (!array.startsWith('[')) unexpected('contents of another kind');
  return [...array.matchAll(/(\d+)\s+(\d+)\s+R/g)].map((match) => (match[2] === '0' ? `${match[1]} 0 R` : unexpected('contents of another generation')));
}

function pageSize(mediaBox: string | undefined): Box {
  const numbers = /^\[\s*(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s*\]$/.exec(mediaBox ?? '') ?? unexpected('a media box to resolve');
  const [x1, y1, x2, y2] = numbers.slice(1).map(Number);
  // As pdf-lib's page.getSize() reads it, so both paths place the stamp alike.
  return { width: x2 - x1, height: y2 - y1 };
}

/** A name not yet a key of `entries`. */
function freeName(entries: Entry[], base: string): string {
  const taken = new Set(entries.map((entry) => entry.key));
  let name = base;
  for (let k = 2; taken.has(name); k++) name = `${base}${k}`;
  return name;
}

/** A number as a content stream writes it: at most 5 decimals, never an exponent. */
const num = (n: number) => String(Number(n.toFixed(5)));

/** pdf-lib's drawPage operators (q, gs, translate, rotate, scale, Do, Q), in an artifact. */
function stampOperators(at: Placement, xObject: string, graphicsState: string): string {
  const radians = (at.degrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  return [
    'Q',
    '/Artifact BMC',
    'q',
    `/${graphicsState} gs`,
    `1 0 0 1 ${num(at.x)} ${num(at.y)} cm`,
    `${num(cos)} ${num(sin)} ${num(-sin)} ${num(cos)} 0 0 cm`,
    `${num(at.scale)} 0 0 ${num(at.scale)} 0 0 cm`,
    `/${xObject} Do`,
    'Q',
    'EMC',
    '',
  ].join('\n');
}

/** A PDF object's bytes as pdf-lib writes it. */
function objectBytes(object: { sizeInBytes(): number; copyBytesInto(buffer: Uint8Array, offset: number): number }): Buffer {
  const bytes = Buffer.alloc(object.sizeInBytes());
  object.copyBytesInto(bytes, 0);
  return bytes;
}

/**
 * The PDF with the stamp drawn on the pages asked, or undefined when it is not of the shape this
 * path knows (the caller then stamps it with pdf-lib). A page past the end is refused
 * (stamp-pages.ts); a stamp that cannot be used, by `stamp.embed`.
 */
export async function stampInPlace(lib: PdfLib, pdf: Buffer, stamp: InPlaceStamp): Promise<Buffer | undefined> {
  let file: ClassicPdf;
  let leaves: Leaf[];
  try {
    file = readClassicPdf(pdf, ['Size', 'Root', 'Info', 'ID']);
    leaves = pageLeaves(file);
  } catch (error) {
    if (error instanceof Shape) return undefined;
    throw error;
  }
  const indexes = stampPageIndexes(stamp.pages, leaves.length);

  // The new objects, numbered from the file's /Size on: pdf-lib's empty document numbers what it makes after its own two.
  const holder = await lib.PDFDocument.create({ updateMetadata: false });
  const first = file.size;
  holder.context.largestObjectNumber = first - 1;
  const mark = await stamp.embed(holder);
  const opacity = holder.context.register(holder.context.obj({ Type: 'ExtGState', ca: stamp.opacity, CA: stamp.opacity }));
  const open = holder.context.register(holder.context.stream('q\n'));

  const replaced = new Map<number, string>();
  try {
    for (const index of indexes) {
      const leaf = leaves[index];
      const resources = dictionaryEntries(file, leaf.resources);
      const xObjects = dictionaryEntries(file, entryValue(resources, 'XObject'));
      const states = dictionaryEntries(file, entryValue(resources, 'ExtGState'));
      const xName = freeName(xObjects, 'ImprintStamp');
      const gsName = freeName(states, 'ImprintStampGS');
      const operators = stampOperators(stamp.place(pageSize(leaf.mediaBox), mark), xName, gsName);
      const drawn = holder.context.register(holder.context.stream(operators));
      const newResources = resources
        .filter((entry) => entry.key !== 'XObject' && entry.key !== 'ExtGState')
        .concat([
          { key: 'XObject', value: writeDictionary([...xObjects, { key: xName, value: mark.ref.toString() }]) },
          { key: 'ExtGState', value: writeDictionary([...states, { key: gsName, value: opacity.toString() }]) },
        ]);
      const contents = [open.toString(), ...contentRefs(file, entryValue(leaf.entries, 'Contents')), drawn.toString()];
      const page = leaf.entries
        .filter((entry) => entry.key !== 'Contents' && entry.key !== 'Resources')
        .concat([
          { key: 'Contents', value: `[${contents.join(' ')}]` },
          { key: 'Resources', value: writeDictionary(newResources) },
        ]);
      replaced.set(leaf.n, writeDictionary(page));
    }
  } catch (error) {
    if (error instanceof Shape) return undefined;
    throw error;
  }

  const added = holder.context
    .enumerateIndirectObjects()
    .filter(([ref]) => ref.objectNumber >= first)
    .sort(([a], [b]) => a.objectNumber - b.objectNumber);
  added.forEach(([ref], k) => {
    if (ref.objectNumber !== first + k || ref.generationNumber !== 0) throw new Error(`The stamp's objects are not numbered from ${first} on (${ref.toString()} at ${k}).`);
  });
  return writeClassicPdf(file, replaced, added.map(([, object]) => objectBytes(object)));
}
