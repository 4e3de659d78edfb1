/**
 * A loopback image server that holds every request until `release()`: a page with one of its
 * images keeps its render slot for exactly as long as a test needs, on a fast machine or a
 * loaded one, where a page that spins for a fixed time races the test's own requests. The
 * service under test must be allowed to reach 127.0.0.1 (`--allow-host 127.0.0.1`).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAAABJRU5ErkJggg==', 'base64');

export interface HeldImages {
  /** http://127.0.0.1:<port> */
  url: string;
  /** An `<img>` of this server, distinct per label. */
  img(label: string): string;
  /** Image requests received so far. */
  count(): number;
  /** Resolves once `n` image requests have arrived in all. */
  requested(n: number): Promise<void>;
  /** Answers every held request, and every later one at once, until hold(). */
  release(): void;
  /** Holds requests again from now on. */
  hold(): void;
  close(): Promise<void>;
}

export async function startHeldImages(): Promise<HeldImages> {
  const waiting: http.ServerResponse[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let released = false;
  let count = 0;
  const answer = (res: http.ServerResponse) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  const server = http.createServer((_req, res) => {
    count++;
    for (const waiter of [...waiters]) {
      if (count < waiter.n) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    if (released) answer(res);
    else waiting.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    img: (label) => `<img src="${url}/held.png?${encodeURIComponent(label)}">`,
    count: () => count,
    requested: (n) => new Promise<void>((resolve) => (count >= n ? resolve() : waiters.push({ n, resolve }))),
    release() {
      released = true;
      for (const res of waiting.splice(0)) answer(res);
    },
    hold() {
      released = false;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
