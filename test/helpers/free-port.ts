/**
 * A TCP port on 127.0.0.1 that is free at this moment. Another process may still take it
 * before the caller binds it, so a caller that starts a server on it retries on a bind error.
 */
import net from 'node:net';

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
