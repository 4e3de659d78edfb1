/**
 * The spooled finish (src/core/pdf/spooled/finish-file.ts) on prints real Chromium made (a
 * tagged ledger of tables, headings, a link and an image; the same untagged): file to file, the
 * very bytes of the in-memory path (finishPdfPacked for the tagged default, finishPdf for the
 * untagged), with nothing asked and with a non-ASCII title, a language and dates, read a few
 * bytes at a time too, so ids and objects straddle every read; the page count it answers is
 * countPdfPages's and pdfinfo's, and qpdf finds the files sound. Files of another shape (object
 * streams, encryption, an object not where its table says) answer undefined and leave no file
 * behind, and no file handle stays open, on any path. A print of some 250 pages (over 20 MB) is
 * finished holding a fraction of it, where the in-memory path holds it twice over.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PDFDocument } from '@cantoo/pdf-lib';
import { countPdfPages } from '../../../../src/core/limits/pdf-pages.js';
import { DEFAULT_PERMISSIONS } from '../../../../src/core/pdf/encrypt-options.js';
import { encryptPdf } from '../../../../src/core/pdf/encrypt-pdf.js';
import { finishPdf, finishPdfPacked, type Finishing } from '../../../../src/core/pdf/finish-pdf.js';
import { finishPdfFile } from '../../../../src/core/pdf/spooled/finish-file.js';
import { RenumberedReader } from '../../../../src/core/pdf/spooled/renumbered-reader.js';
import { idsIn, renumberStructureIds } from '../../../../src/core/pdf/structure-ids.js';
import { tempDir } from '../../../helpers/checkout.js';
import { finishCost } from '../../../helpers/finish-memory.js';
import { ledgerHtml, printHtml, startPrintingBrowser } from '../../../helpers/ledger-print.js';
import { pdfInfo, withFile } from '../../../helpers/pdf.js';
import { pdfInfoFields, pdfLanguage } from '../../../helpers/pdf-metadata.js';

const work = tempDir('imprint-spooled-finish-');
let kill: (() => Promise<void>) | undefined;
const printed = {} as Record<'tagged' | 'plain' | 'short' | 'big', Buffer>;

before(async () => {
  const started = await startPrintingBrowser();
  kill = started.kill;
  printed.tagged = await printHtml(started.browser, ledgerHtml(600), true);
  printed.plain = await printHtml(started.browser, ledgerHtml(600), false);
  printed.short = await printHtml(started.browser, ledgerHtml(80), true);
  printed.big = await printHtml(started.browser, ledgerHtml(15_000), true);
  await kill();
  kill = undefined;
});
after(async () => {
  await kill?.();
  fs.rmSync(work, { recursive: true, force: true });
});

const FINISHINGS: Record<string, Finishing> = {
  'nothing asked': {},
  'a non-ASCII title, a language, dates': {
    templateMetadata: { title: 'Grüße — Ledger € 42 (draft)' },
    metadata: { author: 'Ann (Accounts)', keywords: ['ledger', 'q4'], language: 'de-CH' },
    date: new Date(Date.UTC(2023, 10, 14, 22, 13, 20)),
  },
};

let files = 0;
/** `pdf` written to a file of its own in `work`, and a target beside it. */
function spool(pdf: Buffer): { source: string; target: string } {
  const name = path.join(work, `print-${++files}`);
  fs.writeFileSync(`${name}.pdf`, pdf);
  return { source: `${name}.pdf`, target: `${name}-finished.pdf` };
}

/** The files under `work` this process has open: a handle left open on any path shows here. */
const openInWork = () =>
  fs.readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      return [fs.readlinkSync(`/proc/self/fd/${fd}`)].filter((file) => file.startsWith(work));
    } catch {
      return []; // the directory listing's own descriptor, closed by the time it is read
    }
  });

const qpdfCheck = (pdf: Buffer) => withFile(pdf, (file) => execFileSync('qpdf', ['--check', file], { timeout: 60_000 }).toString());

/** The in-memory path's bytes for `raw`, as the render's finishing takes it (finish-print.ts). */
async function inMemory(raw: Buffer, finishing: Finishing, pack: boolean): Promise<Buffer> {
  const renumbered = renumberStructureIds(raw);
  const finished = pack ? finishPdfPacked(renumbered, finishing) : await finishPdf(renumbered, finishing);
  assert.ok(finished, 'a Chromium print takes the in-memory fast path');
  return finished;
}

describe('the spooled finish, file to file', { timeout: 600_000 }, () => {
  test('the prints have structure ids to renumber, the tagged one thousands of them, not numbered from 1', () => {
    assert.ok(idsIn(printed.tagged).length > 1000, `${idsIn(printed.tagged).length} ids`);
    assert.ok(!renumberStructureIds(printed.tagged).equals(printed.tagged), 'renumbering changes the tagged print');
    assert.equal(idsIn(printed.plain).length, 0);
  });

  for (const [kind, pack] of [['tagged', true], ['plain', false]] as const) {
    for (const [name, finishing] of Object.entries(FINISHINGS)) {
      for (const chunkBytes of [undefined, 64, 7]) {
        // The tiny reads on one finishing each: a few hundred thousand reads of a 7-byte chunk.
        if (chunkBytes !== undefined && name === 'nothing asked') continue;
        test(`${kind} print, pack: ${pack}, ${name}, ${chunkBytes ?? 'default'}-byte reads: the in-memory path's bytes, its page count, qpdf clean`, async () => {
          const { source, target } = spool(printed[kind]);
          const result = await finishPdfFile(source, target, finishing, { pack, chunkBytes });
          assert.deepEqual(openInWork(), [], 'no handle left open');
          assert.ok(result, 'a Chromium print is finished from its file');
          const finished = fs.readFileSync(target);
          assert.ok(finished.equals(await inMemory(printed[kind], finishing, pack)), 'the same bytes as the in-memory path');
          assert.equal(fs.statSync(target).mode & 0o777, 0o600, 'private, as the spooled print');
          assert.equal(result.bytes, finished.length);
          assert.equal(result.pages, countPdfPages(finished));
          assert.equal(result.pages, pdfInfo(finished).pages);
          assert.ok(result.pages > 5, `${result.pages} pages`);
          assert.match(qpdfCheck(finished), /No syntax or stream encoding errors/);
          if (finishing.date) {
            const info = pdfInfoFields(finished);
            assert.equal(info.Title, 'Grüße — Ledger € 42 (draft)');
            assert.equal(info.Author, 'Ann (Accounts)');
            assert.equal(pdfLanguage(finished), 'de-CH');
          }
          // Packed: the structure tree went into object streams; plain: the one classic table stays.
          assert.equal(/\/Type \/ObjStm/.test(finished.toString('latin1')), pack);
        });
      }
    }
  }

  test('read at any size, every byte is the renumbered file, ids cut by a read end included', async () => {
    // A short print: 5-byte reads of it are tens of thousands.
    const { source } = spool(printed.short);
    const expected = renumberStructureIds(printed.short);
    assert.ok(!expected.equals(printed.short), 'it has ids to renumber');
    for (const chunkBytes of [5, 13, 14, 4096]) {
      const handle = await fs.promises.open(source, 'r');
      try {
        const reader = await RenumberedReader.open(handle, chunkBytes);
        const chunks: Buffer[] = [];
        for await (const chunk of reader.chunks(0, reader.size)) chunks.push(Buffer.from(chunk));
        assert.ok(Buffer.concat(chunks).equals(expected), `${chunkBytes}-byte reads`);
        // Reads anywhere, not only on chunk bounds: each range is the renumbered file's.
        for (const [from, to] of [[1, expected.length >> 1], [expected.length - 30_000, expected.length], [77, 78]]) {
          assert.ok((await reader.bytes(from, to)).equals(expected.subarray(from, to)), `${chunkBytes}-byte reader, bytes ${from} to ${to}`);
        }
      } finally {
        await handle.close();
      }
    }
  });

  const otherShapes: Record<string, () => Promise<Buffer>> = {
    'saved by pdf-lib with object streams': async () => Buffer.from(await (await PDFDocument.load(printed.tagged)).save({ useObjectStreams: true })),
    encrypted: async () => encryptPdf(printed.tagged, { ownerPassword: 'o', permissions: DEFAULT_PERMISSIONS }),
    // Found only while the objects are copied, once the output file is begun: the last structure element's number changed in place, to one as long.
    'with an object not the one its table names': async () => {
      const text = printed.tagged.toString('latin1');
      const last = [...text.matchAll(/\n(\d+) 0 obj\n<<\/Type \/StructElem/g)].at(-1)!;
      const number = Number(last[1]);
      const other = String(String(number + 1).length === last[1].length ? number + 1 : number - 1);
      return Buffer.concat([printed.tagged.subarray(0, last.index + 1), Buffer.from(other), printed.tagged.subarray(last.index + 1 + last[1].length)]);
    },
  };
  for (const [name, make] of Object.entries(otherShapes)) {
    test(`a file ${name}: undefined, as the in-memory path answers, and no file left behind`, async () => {
      const pdf = await make();
      assert.equal(finishPdfPacked(renumberStructureIds(pdf), {}), undefined, 'the in-memory path does not take it either');
      const { source, target } = spool(pdf);
      const present = fs.readdirSync(work).sort();
      assert.equal(await finishPdfFile(source, target, {}, { pack: true, chunkBytes: 4096 }), undefined);
      assert.deepEqual(openInWork(), [], 'no handle left open');
      assert.deepEqual(fs.readdirSync(work).sort(), present, 'no target, no temp file');
    });
  }

  test('a target that cannot be written: the error, every handle closed, no temp file', async () => {
    const { source } = spool(printed.tagged);
    const present = fs.readdirSync(work).sort();
    await assert.rejects(finishPdfFile(source, path.join(work, 'missing-folder', 'out.pdf'), {}, { pack: true }), { code: 'ENOENT' });
    assert.deepEqual(openInWork(), []);
    assert.deepEqual(fs.readdirSync(work).sort(), present);
  });

  test('a 250-page tagged print: finished holding well under half its size, where the in-memory path holds it more than whole', (t) => {
    const { source, target } = spool(printed.big);
    const mib = printed.big.length / 2 ** 20;
    assert.ok(mib > 12, `the print is ${mib.toFixed(1)} MiB`);
    const file = finishCost('file', source, target, { pack: true, sampleLive: true });
    const spooled = fs.readFileSync(target);
    const memory = finishCost('memory', source, target, { pack: true, sampleLive: true });
    assert.ok(spooled.equals(fs.readFileSync(target)), 'both wrote the same bytes');
    const figures = `file ${mib.toFixed(1)} MiB; held: spooled ${file.liveMiB!.toFixed(1)} MiB, in memory ${memory.liveMiB!.toFixed(1)} MiB; resident peak growth: spooled ${(file.peakMiB - file.startMiB).toFixed(0)} MiB, in memory ${(memory.peakMiB - memory.startMiB).toFixed(0)} MiB`;
    t.diagnostic(figures);
    // The control: the sampling sees a finish that holds the file.
    assert.ok(memory.liveMiB! > mib, figures);
    assert.ok(file.liveMiB! < mib / 2, figures);
    // Garbage included, the spooled finish's process still grows less than the in-memory one's.
    assert.ok(file.peakMiB - file.startMiB < memory.peakMiB - memory.startMiB, figures);
  });
});
