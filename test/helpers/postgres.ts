/**
 * A throwaway PostgreSQL cluster for tests: Debian's server binaries (scripts/setup.sh
 * installs the `postgresql` package), initdb into a temporary folder, started with pg_ctl on
 * 127.0.0.1 on a free port, stopped and removed by stop(). PostgreSQL refuses to run as root,
 * so as root every server command runs as the `postgres` user, which owns the folder.
 * No test depends on a server the machine happens to run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { onExit } from './exit-hooks.js';
import { freePort } from './free-port.js';

export interface PostgresCluster {
  /** The URL of a database on this cluster (`postgres` by default). */
  url(database?: string): string;
  /** A new, empty database; answers its URL. */
  createDatabase(): Promise<string>;
  /** Drops a database made by createDatabase, ending whatever still connects to it. */
  dropDatabase(url: string): Promise<void>;
  /** Stops the server (immediately: the data is thrown away) and removes its folder. */
  stop(): Promise<void>;
  /** Stops the server and starts it again on the same port and data, as an operator's restart. */
  restart(): Promise<void>;
  /** The first half of restart(): the server stops (fast: sessions are ended), its data kept. */
  down(): Promise<void>;
  /** The second half: the server starts again on the same port and data, and accepts connections. */
  up(): Promise<void>;
}

const START_TIMEOUT_S = 60;
/** The file in a cluster's folder naming the test file run that started it (IMPRINT_TEST_FILE_TOKEN, set by scripts/run-tests.js). */
export const OWNER_FILE = 'imprint-test-owner';
const READY_DEADLINE_MS = 30_000;
const BIND_ATTEMPTS = 5;

/** The newest installed server's bin folder (/usr/lib/postgresql/<major>/bin). */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const majors = fs
    .readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && fs.existsSync(path.join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] && path.join(root, majors[0], 'bin');
}

const asRoot = process.getuid?.() === 0;

/** Runs a server binary, as the postgres user when this process is root. */
function runServerCommand(bin: string, args: string[]): { status: number | null; output: string } {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const result = spawnSync(file, argv, { encoding: 'utf8' });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

async function waitUntilAccepting(url: string): Promise<void> {
  const deadline = Date.now() + READY_DEADLINE_MS;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections within ${READY_DEADLINE_MS} ms: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

export async function startPostgres(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql: run scripts/setup.sh (it installs the postgresql package).');
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-pg-'));
  const dataDir = path.join(folder, 'data');
  const logFile = path.join(folder, 'server.log');
  if (asRoot) execFileSync('chown', ['postgres:postgres', folder]);
  const remove = () => fs.rmSync(folder, { recursive: true, force: true });

  let port = 0;
  const pgCtl = (args: string[]) => runServerCommand(path.join(bin, 'pg_ctl'), ['-D', dataDir, ...args]);
  let stopped = false;
  // A cluster runs detached from this process (pg_ctl starts it in a session of its own): it is
  // stopped here too if the test process ends before stop() (a crash, a signal, the runner's
  // per-file timeout), from the moment it may exist. If this process is killed outright, the
  // runner stops it by the token in its folder (scripts/run-tests.js).
  const forget = onExit(() => {
    if (stopped) return;
    stopped = true;
    if (fs.existsSync(path.join(dataDir, 'postmaster.pid'))) pgCtl(['-m', 'immediate', '-w', 'stop']);
    remove();
  });
  if (process.env.IMPRINT_TEST_FILE_TOKEN) fs.writeFileSync(path.join(folder, OWNER_FILE), process.env.IMPRINT_TEST_FILE_TOKEN);
  const init = runServerCommand(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  if (init.status !== 0) {
    stopped = true;
    forget();
    remove();
    throw new Error(`initdb failed:\n${init.output}`);
  }

  // Sockets in the cluster's own folder (none in /var/run/postgresql); fsync off: the data is thrown away.
  const start = () =>
    pgCtl(['-l', logFile, '-w', '-t', String(START_TIMEOUT_S), '-o', `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`, 'start']);

  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    const started = start();
    if (started.status === 0) break;
    const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
    // Another process took the port between our check and the server's bind: try another.
    if (/could not bind|Address already in use/i.test(log) && attempt < BIND_ATTEMPTS) continue;
    stopped = true;
    forget();
    pgCtl(['-m', 'immediate', 'stop']);
    remove();
    throw new Error(`pg_ctl start failed:\n${started.output}\n${log}`);
  }

  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  try {
    await waitUntilAccepting(url());
  } catch (error) {
    stopped = true;
    forget();
    pgCtl(['-m', 'immediate', 'stop']);
    remove();
    throw error;
  }

  let databases = 0;
  const admin = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url() });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };

  const down = () => {
    const stop = pgCtl(['-m', 'fast', '-w', 'stop']);
    if (stop.status !== 0) throw new Error(`pg_ctl stop failed:\n${stop.output}`);
  };
  const up = async () => {
    const started = start();
    if (started.status !== 0) throw new Error(`pg_ctl start failed:\n${started.output}`);
    await waitUntilAccepting(url());
  };

  return {
    url,
    async createDatabase() {
      const name = `imprint_test_${process.pid}_${++databases}`;
      await admin((client) => client.query(`CREATE DATABASE ${name}`));
      return url(name);
    },
    async dropDatabase(databaseUrl) {
      const name = new URL(databaseUrl).pathname.slice(1);
      if (!/^imprint_test_\d+_\d+$/.test(name)) throw new Error(`Not a test database: ${name}`);
      await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      forget();
      const result = pgCtl(['-m', 'immediate', '-w', 'stop']);
      remove();
      if (result.status !== 0) throw new Error(`pg_ctl stop failed:\n${result.output}`);
    },
    async restart() {
      down();
      await up();
    },
    async down() {
      down();
    },
    up,
  };
}
