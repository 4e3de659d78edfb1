/**
 * An undici dispatcher whose every connection goes to the addresses the outbound policy
 * approved, never to a fresh lookup of the name: between the check and the connect a name
 * could be made to resolve elsewhere (DNS rebinding). The TCP connection is opened by the
 * egress proxy's own dialer (src/core/net/dial.ts); for https the TLS handshake runs over it
 * with the URL's host name, so the certificate is still checked against the name.
 */
import net from 'node:net';
import tls from 'node:tls';
import { Agent, type buildConnector } from 'undici';
import type { AllowedAddress } from '../net/destination-check.js';
import { dialFirst, directDialer, type Dialer } from '../net/dial.js';

export interface PinnedAgentOptions {
  /** The URL the agent serves (one attempt of one webhook); its host name is used for TLS. */
  url: URL;
  addresses: readonly AllowedAddress[];
  connectTimeoutMs: number;
  dialer?: Dialer;
  /** Certificate authorities to trust instead of Node's own; a test seam (a receiver with a certificate made for the test). */
  ca?: string | Buffer;
}

function startTls(socket: net.Socket, hostname: string, ca: string | Buffer | undefined): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    // SNI carries a name, never an address; the certificate is checked against `host` either way.
    const secure = tls.connect({ socket, host: hostname, servername: net.isIP(hostname) ? undefined : hostname, ALPNProtocols: ['http/1.1'], ...(ca === undefined ? {} : { ca }) });
    secure.once('secureConnect', () => {
      secure.off('error', reject);
      resolve(secure);
    });
    secure.once('error', (error) => {
      secure.destroy();
      reject(error);
    });
  });
}

export function pinnedAgent(options: PinnedAgentOptions): Agent {
  const { url, addresses, connectTimeoutMs, dialer = directDialer, ca } = options;
  const https = url.protocol === 'https:';
  const port = Number(url.port || (https ? 443 : 80));
  // The URL's hostname keeps IPv6 brackets; TLS wants the bare form.
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const connect = (_target: buildConnector.Options, callback: buildConnector.Callback) => {
    dialFirst(addresses, port, dialer, connectTimeoutMs)
      .then((socket): net.Socket | Promise<net.Socket> => (https ? startTls(socket, hostname, ca) : socket))
      .then(
        (socket) => callback(null, socket),
        (error: Error) => callback(error, null),
      );
  };
  // One connection, no keep-alive reuse across attempts: the agent lives for one attempt.
  return new Agent({ connect, connections: 1 });
}
