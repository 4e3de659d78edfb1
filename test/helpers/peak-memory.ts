/**
 * A process's peak resident memory as the kernel keeps it (VmHWM in /proc/<pid>/status), for
 * tests that report what a long render cost (figures printed, never asserted: a test does not
 * time or weigh). resetPeakMemory starts the peak afresh (writing 5 to clear_refs, Linux 4.0
 * and later), so a reading after one render is that render's peak, not the process's since it
 * started. Linux only, like the rest of /proc.
 */
import fs from 'node:fs';

/** The peak resident set of `pid` since it started or since its last reset, in MiB. */
export function peakMemoryMiB(pid: number): number {
  const kib = /^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kib === undefined) throw new Error(`/proc/${pid}/status has no VmHWM line.`);
  return Number(kib) / 1024;
}

/** Starts `pid`'s peak again from its resident set now. */
export function resetPeakMemory(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}
