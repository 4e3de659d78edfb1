/**
 * Debian's nginx (scripts/setup.sh installs it) in front of `imprint serve` nodes, as a child
 * process of the test: the site configuration of docs/deploy.md (nginx-config.ts) for these
 * nodes, on 127.0.0.1 and a free port, pid, logs and temp folders in a temporary folder. Never
 * a system nginx, and nothing outside that folder is written.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { tempDir } from './cli.js';
import { imprintSiteConfig, standaloneNginxConfig, type ImprintSiteOptions } from './nginx-config.js';
import { freePort } from './free-port.js';

export const NGINX = '/usr/sbin/nginx';

export interface Nginx {
  /** http://127.0.0.1:<port> */
  url: string;
  /** The whole nginx.conf it runs with. */
  config: string;
  /** Its error log so far, for assertion messages. */
  errorLog(): string;
  stop(): Promise<void>;
}

const READY_DEADLINE_MS = 20_000;
const BIND_ATTEMPTS = 5;

/** Resolves once nginx answers HTTP at all (a 502 while no node is up counts), or rejects when it exits first. */
async function waitUntilAnswering(url: string, exited: Promise<unknown>, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_DEADLINE_MS;
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`nginx exited before answering:\n${output()}`);
    try {
      const response = await request(`${url}/healthz`, { headersTimeout: 2000, bodyTimeout: 2000 });
      await response.body.dump();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`nginx did not answer within ${READY_DEADLINE_MS} ms: ${(error as Error).message}\n${output()}`);
      await Promise.race([new Promise((resolve) => setTimeout(resolve, 50)), exited]);
    }
  }
}

export async function startNginx(site: Omit<ImprintSiteOptions, 'listen'>): Promise<Nginx> {
  if (!fs.existsSync(NGINX)) throw new Error(`${NGINX} not found: run scripts/setup.sh (it installs Debian's nginx package).`);
  const runDir = tempDir('imprint-nginx-');
  const confPath = path.join(runDir, 'nginx.conf');
  const errorLog = () => (fs.existsSync(path.join(runDir, 'error.log')) ? fs.readFileSync(path.join(runDir, 'error.log'), 'utf8') : '');

  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const config = standaloneNginxConfig(imprintSiteConfig({ ...site, listen: `127.0.0.1:${port}` }), { runDir, workersAsRoot: process.getuid?.() === 0 });
    fs.writeFileSync(confPath, config);
    // -p and -e: nginx opens its compiled-in prefix and error log before it reads the config.
    const child: ChildProcess = spawn(NGINX, ['-p', runDir, '-e', path.join(runDir, 'error.log'), '-c', confPath, '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitUntilAnswering(url, exited, () => `${output}${errorLog()}`);
    } catch (error) {
      child.kill('SIGKILL');
      await exited;
      // Another process took the port between our check and nginx's bind: try another.
      if (/Address already in use/.test(`${output}${errorLog()}`) && attempt < BIND_ATTEMPTS) continue;
      fs.rmSync(runDir, { recursive: true, force: true });
      throw error;
    }
    return {
      url,
      config,
      errorLog,
      async stop() {
        // SIGTERM: fast shutdown, the master waits for its workers.
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
        fs.rmSync(runDir, { recursive: true, force: true });
      },
    };
  }
}
