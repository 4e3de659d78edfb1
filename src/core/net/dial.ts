/**
 * Opens the upstream connection of the egress proxy to one of the addresses the destination
 * check approved, in the order they were resolved, and to nothing else: the dialer is given an
 * IP address, never a name, so no second lookup can happen between the check and the connect.
 */
import net from 'node:net';
import type { AllowedAddress } from './destination-check.js';

export interface DialTarget {
  address: string;
  family: 4 | 6;
  port: number;
}

/** Starts a TCP connection; the returned socket emits 'connect' or 'error'. A test seam. */
export type Dialer = (target: DialTarget) => net.Socket;

export const directDialer: Dialer = (target) => net.connect({ host: target.address, port: target.port, family: target.family });

function attempt(dialer: Dialer, target: DialTarget, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = dialer(target);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error(`connecting to ${target.address}:${target.port} timed out after ${timeoutMs} ms`)), timeoutMs);
    socket.once('error', fail);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', fail);
      resolve(socket);
    });
  });
}

/** Tries each approved address in turn; rejects with the last error when none answers. */
export async function dialFirst(addresses: readonly AllowedAddress[], port: number, dialer: Dialer, timeoutMs: number): Promise<net.Socket> {
  let lastError: Error = new Error('no address to connect to');
  for (const { address, family, classification } of addresses) {
    // An IPv4-mapped address is its IPv4 address: connect over IPv4, as a dual-stack socket would.
    const target: DialTarget =
      classification.embedded?.wrapper === 'ipv4-mapped' ? { address: classification.embedded.ipv4, family: 4, port } : { address, family, port };
    try {
      return await attempt(dialer, target, timeoutMs);
    } catch (error) {
      lastError = error as Error;
    }
  }
  throw lastError;
}
