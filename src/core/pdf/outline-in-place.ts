/**
 * outline.ts's renaming done in place, on a PDF as Chromium writes it: only the outline's own
 * objects are read and written again (classic-pdf.ts, as info-rewrite.ts does), every other object is
 * copied byte for byte. pdf-lib's path parses and writes every object of the file, and a tagged
 * document has some 10^5 (its structure elements): 25 s for a 200-page table on the shared
 * machine, against a few ms here (bench/tagged-cost.ts --named, bench/README.md).
 *
 * The entries keep their object numbers in document order (a dropped entry's number goes to
 * the next one kept; the numbers left over are emptied to `null`, so a reader that scans the
 * file's objects lists no stale entry) and every key Chromium wrote (/Dest, its /SE link to
 * the heading's structure element); the links between them (/Parent, /Prev, /Next, /First,
 * /Last, /Count) are written anew. A file or an outline of another shape (a title that is a
 * reference, a loop) answers undefined and outline.ts's pdf-lib path does it.
 */
import type { PageHeading } from '../render/page-facts.js';
import { entryValue, objectDictionary, readClassicPdf, refNumber, trailerObject, unexpected, unlessOtherShape, writeClassicPdf, writeDictionary, type ClassicPdf, type Entry as DictionaryEntry } from './classic-pdf.js';
import { decodeTextString, pdfTextString } from './info-rewrite.js';
import { applyNames } from './outline.js';

interface Entry {
  title: string;
  /** Its keys other than the title and the links, as written. */
  kept: DictionaryEntry[];
  kids: Entry[];
}

const LINKS = new Set(['Title', 'Parent', 'Prev', 'Next', 'First', 'Last', 'Count']);


/** The entries from `first` on, their numbers collected in document order into `numbers`. */
function readEntries(plain: ClassicPdf, first: string | undefined, numbers: number[], seen = new Set<number>()): Entry[] {
  const entries: Entry[] = [];
  for (let ref = first; ref !== undefined; ) {
    const n = refNumber(ref);
    if (seen.has(n)) unexpected('an outline that loops');
    seen.add(n);
    numbers.push(n);
    const item = objectDictionary(plain, n);
    const title = decodeTextString(entryValue(item, 'Title') ?? '()') ?? unexpected('a title that is not a string');
    entries.push({ title, kept: item.filter((entry) => !LINKS.has(entry.key)), kids: readEntries(plain, entryValue(item, 'First'), numbers, seen) });
    ref = entryValue(item, 'Next');
  }
  return entries;
}

/** The PDF with the outline's entries renamed or dropped by `headings` (outline.ts), or undefined for another shape. */
export function nameOutlineInPlace(pdf: Buffer, headings: PageHeading[]): Buffer | undefined {
  return unlessOtherShape(() => {
    const plain = readClassicPdf(pdf, ['Size', 'Root', 'Info']);
    const replaced = renamed(plain, headings);
    return replaced.size === 0 ? pdf : writeClassicPdf(plain, replaced);
  });
}

/** The outline's objects written anew (number to source; `null` empties one no longer used). */
function renamed(plain: ClassicPdf, headings: PageHeading[]): Map<number, string> {
  const replaced = new Map<number, string>();
  const catalogNumber = trailerObject(plain, 'Root');
  {
    const catalog = objectDictionary(plain, catalogNumber);
    const rootRef = entryValue(catalog, 'Outlines');
    if (rootRef === undefined) return replaced;
    const rootNumber = refNumber(rootRef);
    const numbers: number[] = [];
    const entries = applyNames(readEntries(plain, entryValue(objectDictionary(plain, rootNumber), 'First'), numbers), headings);
    const free = [...numbers];
    const write = (list: Entry[], parent: number): { first: number; last: number; count: number } => {
      const refs = list.map(() => free.shift()!);
      let count = list.length;
      list.forEach((entry, i) => {
        const item: DictionaryEntry[] = [{ key: 'Title', value: pdfTextString(entry.title) }, ...entry.kept, { key: 'Parent', value: `${parent} 0 R` }];
        if (i > 0) item.push({ key: 'Prev', value: `${refs[i - 1]} 0 R` });
        if (i < list.length - 1) item.push({ key: 'Next', value: `${refs[i + 1]} 0 R` });
        if (entry.kids.length > 0) {
          const kids = write(entry.kids, refs[i]);
          item.push({ key: 'First', value: `${kids.first} 0 R` }, { key: 'Last', value: `${kids.last} 0 R` }, { key: 'Count', value: String(kids.count) });
          count += kids.count;
        }
        replaced.set(refs[i], writeDictionary(item));
      });
      return { first: refs[0], last: refs[refs.length - 1], count };
    };
    if (entries.length === 0) {
      // Every entry left out: no outline at all, as outline.ts's path leaves it.
      replaced.set(catalogNumber, writeDictionary(catalog.filter((entry) => entry.key !== 'Outlines')));
      replaced.set(rootNumber, 'null');
    } else {
      const top = write(entries, rootNumber);
      replaced.set(rootNumber, writeDictionary([{ key: 'Type', value: '/Outlines' }, { key: 'First', value: `${top.first} 0 R` }, { key: 'Last', value: `${top.last} 0 R` }, { key: 'Count', value: String(top.count) }]));
    }
    for (const n of free) replaced.set(n, 'null');
    return replaced;
  }
}
