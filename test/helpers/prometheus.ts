/**
 * Reading Prometheus' text format in tests: each sample by its name and exact label set, so
 * an assertion names the series it means and fails on a value, not on a line's formatting.
 */
import assert from 'node:assert/strict';
import { request } from 'undici';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseMetrics(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = LINE.exec(line);
      assert.ok(match, `not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL)].map(([, key, value]) => [key, value]));
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

const sameLabels = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(b).every(([key, value]) => a[key] === value);

export class Scrape {
  constructor(
    readonly text: string,
    readonly samples = parseMetrics(text),
  ) {}

  /** The value of the series with exactly these labels; undefined when there is none. */
  value(name: string, labels: Record<string, string> = {}): number | undefined {
    return this.samples.find((sample) => sample.name === name && sameLabels(sample.labels, labels))?.value;
  }

  /** Every series of a metric. */
  series(name: string): Sample[] {
    return this.samples.filter((sample) => sample.name === name);
  }
}

export async function scrape(url: string): Promise<Scrape> {
  const response = await request(url);
  const text = await response.body.text();
  assert.equal(response.statusCode, 200, text);
  assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return new Scrape(text);
}
