/**
 * A canary HTTP server on loopback: it records every request that reaches it. A test that
 * expects a refusal checks that nothing arrived; one that expects access checks that the
 * request did arrive, so the refusal tests can fail.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Canary {
  port: number;
  /** http://127.0.0.1:<port> */
  url: string;
  /** "GET /path (host)" of every request received, in order. */
  requests: string[];
  /** TCP connections accepted, with or without a request: an open connection is a reach too. */
  connections(): number;
  close(): Promise<void>;
}

export const CANARY_TEXT = 'Canary page reached';

export async function startCanary(): Promise<Canary> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url} (${req.headers.host})`);
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><h1>${CANARY_TEXT}</h1></body></html>`);
  });
  let connections = 0;
  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
