/** Reading `imprint check`'s report in tests. */
import assert from 'node:assert/strict';

/** The report's block for one template: its ✔/✖ line and the problem lines under it. */
export function blockOf(report: string, file: string): string {
  const lines = report.split('\n');
  const start = lines.findIndex((line) => line.includes(file));
  assert.ok(start >= 0, `${file} in the report:\n${report}`);
  const end = lines.findIndex((line, i) => i > start && !line.startsWith(' '));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}
