/**
 * A classic cross-reference table read by character codes, not by a regular expression over a
 * slice per row: a tagged PDF's table has some 10^5 rows (Chromium writes an object per
 * structure element), and the regular expressions cost the finishing step a quarter of a second
 * per pass on a 200-page table (bench/tagged-cost.ts). Shared by info-rewrite.ts and
 * object-streams.ts, which both copy a Chromium PDF by its table.
 */
export interface XrefRow {
  n: number;
  offset: number;
  generation: number;
  inUse: boolean;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;

/**
 * The rows of the table whose first subsection starts at or after `i` (just past the `xref`
 * keyword) and the index where the rows end (at `trailer`), or undefined for a malformed row.
 * A row is 20 bytes: ten digits of offset, five of generation, `n` or `f`, a two-byte line end.
 */
export function readXrefRows(text: string, i: number): { rows: XrefRow[]; end: number } | undefined {
  const rows: XrefRow[] = [];
  const fixedDigits = (from: number, count: number): number => {
    let value = 0;
    for (let k = from; k < from + count; k++) {
      const digit = text.charCodeAt(k) - 48;
      if (digit < 0 || digit > 9) return -1;
      value = value * 10 + digit;
    }
    return value;
  };
  const number = (): number => {
    const start = i;
    let value = 0;
    for (let digit = text.charCodeAt(i) - 48; digit >= 0 && digit <= 9; digit = text.charCodeAt(++i) - 48) value = value * 10 + digit;
    return i === start ? -1 : value;
  };
  for (;;) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    const first = number();
    if (first < 0) return { rows, end: i };
    if (text[i] !== ' ') return undefined;
    i++;
    const count = number();
    if (count < 0) return undefined;
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    for (let k = 0; k < count; k++, i += 20) {
      const offset = fixedDigits(i, 10);
      const generation = fixedDigits(i + 11, 5);
      const type = text[i + 17];
      if (offset < 0 || generation < 0 || text[i + 10] !== ' ' || text[i + 16] !== ' ' || (type !== 'n' && type !== 'f')) return undefined;
      rows.push({ n: first + k, offset, generation, inUse: type === 'n' });
    }
  }
}
