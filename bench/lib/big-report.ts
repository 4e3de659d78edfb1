/** The big-document benchmarks' report (bench/fixtures/big-report), laid out as a project with its logo. */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ROOT } from './invoice.js';

/** Rows of the report's table on one A4 page (about: 7,200 rows print on 195 pages). */
export const ROWS_PER_PAGE = 36;

/** A PNG of `size` x `size` noise pixels: incompressible, so about 3 bytes a pixel on disk. */
function noisePng(size: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  let seed = 40; // xorshift32: the same logo every run
  const raw = Buffer.alloc(size * (size * 3 + 1));
  for (let i = 0; i < raw.length; i++) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    raw[i] = i % (size * 3 + 1) === 0 ? 0 : seed & 0xff; // each row starts with its filter byte (none)
  }
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** The report copied into `dir` beside a 200 KB logo; answers the template file. */
export function bigReportProject(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const template = path.join(dir, 'BigReport.tsx');
  fs.copyFileSync(path.join(ROOT, 'bench', 'fixtures', 'big-report', 'BigReport.tsx'), template);
  fs.writeFileSync(path.join(dir, 'logo.png'), noisePng(260));
  return template;
}
