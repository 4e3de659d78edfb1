/**
 * The one writer of whole files: readers see either nothing or the whole file, never a prefix.
 * The bytes go to a temp file beside the final name (rename is only atomic within one file
 * system), which is renamed over it once complete; on any failure the temp file is removed and
 * the final name keeps what it had. The store's objects (a database row points at them), the
 * CLI's PDFs, summaries and job notes, and a job's archive are all written here.
 *
 * A write can stop short: when the disk fills up mid-file, write(2) reports the bytes it did
 * write, and only the next call fails with ENOSPC. So the bytes are written in a loop until all
 * are on disk or one call fails; a prefix is never renamed into place.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';

export interface AtomicWriteOptions {
  /**
   * Fsync the file before the rename and its folder after, so the rename survives a power cut:
   * the store's objects, which a database row points at once written. The CLI's output files
   * do not wait on the disk (a batch writes thousands).
   */
  durable?: boolean;
  /** The new file's mode (before the umask); 0o666 as fs.writeFile, 0o600 for the store's private folder. */
  mode?: number;
}

let tempFiles = 0;

/**
 * A temp name beside `file` that no other writer picks (this process's id and a count) and no
 * one could have planted: it is created exclusively ('wx'), never followed if something is
 * there. A dot first, so it is hidden and never taken for a finished file. No node:crypto for
 * its randomness: loading it costs a warm call (cli/renderer/fast-render.ts) 3 to 6 ms.
 */
const tempBeside = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${++tempFiles}-${Math.random().toString(36).slice(2, 8)}.tmp`);

/**
 * `file` replaced whole by what `fill` writes into the temp file's handle. Asynchronous (libuv's
 * thread pool): the fsyncs of a PDF and its folder take milliseconds of waiting on the disk, and
 * a service that waited on its event loop held every other render's browser messages and every
 * download back meanwhile (bench/README.md, the job row's profile: 4-7 ms of every job row's PDF).
 */
export async function replaceFileAtomically(file: string, fill: (handle: fs.promises.FileHandle) => Promise<void>, options: AtomicWriteOptions = {}): Promise<void> {
  const temp = tempBeside(file);
  const handle = await fs.promises.open(temp, 'wx', options.mode ?? 0o666);
  try {
    try {
      await fill(handle);
      if (options.durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temp, file);
  } catch (error) {
    // Only the temp file this call made is removed: it was created exclusively above.
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
  if (options.durable) await fsyncDirectory(path.dirname(file));
}

/**
 * `file` replaced whole by what `fill` streams into it (a download as it arrives, a spooled PDF).
 * `into` is a Writable of ours that writes each chunk at its offset through the handle, which
 * stays replaceFileAtomically's, open for the fsync: a stream of the handle's own
 * (handle.createWriteStream) closes it when destroyed, autoClose: false or not (Node 24), and
 * the durable write of the store then failed with "file closed" (every spooled PDF the files
 * store was handed: a `json` result's, a job row's).
 */
export function streamFileAtomically(file: string, fill: (into: Writable) => Promise<void>, options: AtomicWriteOptions = {}): Promise<void> {
  return replaceFileAtomically(
    file,
    async (handle) => {
      let offset = 0;
      const into = new Writable({
        write(chunk: Buffer, _encoding, done) {
          writeAll(handle, chunk, offset).then(() => {
            offset += chunk.length;
            done();
          }, done);
        },
      });
      await fill(into);
      // Every chunk on the file before the fsync and the close: a fill that left the stream open (pipeline's end: false) ends it here.
      if (!into.writableFinished) await finished(into.end());
    },
    options,
  );
}

export function writeFileAtomic(file: string, data: Buffer | string, options: AtomicWriteOptions = {}): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  return replaceFileAtomically(file, (handle) => writeAll(handle, bytes), options);
}

/**
 * The same, on the calling thread, for the CLI's writes that answer synchronously (a warm
 * renderer's nail call writes the PDF before it answers; a job's rows as they arrive). Never durable.
 */
export function writeFileAtomicSync(file: string, data: Buffer | string): void {
  const temp = tempBeside(file);
  const fd = fs.openSync(temp, 'wx');
  try {
    try {
      fs.writeFileSync(fd, data);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/** Every byte of `data` at `at` in the file (its start by default), however many calls that takes. */
export async function writeAll(handle: fs.promises.FileHandle, data: Buffer, at = 0): Promise<void> {
  for (let offset = 0; offset < data.length; ) {
    const { bytesWritten: written } = await handle.write(data, offset, data.length - offset, at + offset);
    // Not expected from a regular file, but a loop that cannot advance must not spin.
    if (written <= 0) throw new Error(`Writing ${data.length} bytes stopped at ${offset}: the file system accepted none of the rest.`);
    offset += written;
  }
}

async function fsyncDirectory(dir: string): Promise<void> {
  // Windows cannot open a folder for fsync; there the rename is as durable as NTFS makes it.
  if (process.platform === 'win32') return;
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
