/**
 * The corpus of template projects (test/fixtures/projects/<name>/, issue 35, and the htmldocs
 * project test/fixtures/htmldocs-project) as their users have them: the fixture's staged copy
 * outside the checkout (installed.ts) with the packages its
 * package.json and package-lock.json name installed from the npm registry, as `npm ci` in the
 * project would. Once per run: the run's installation folder (IMPRINT_TEST_INSTALL) holds one
 * npm cache for every fixture, and a fixture whose node_modules already matches its lockfile
 * (another test file of the run installed it) is not installed again.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { INPUTS } from './cli.js';
import { installedImprint } from './installed.js';

const execFileAsync = promisify(execFile);

/** An `npm ci` of Tailwind's tree from a cold cache takes a minute on a busy 2-core machine. */
const INSTALL_DEADLINE_MS = 8 * 60_000;

export const PROJECTS = path.join(INPUTS, 'test', 'fixtures', 'projects');

/** Where the run keeps what the fixtures' installs share: the npm cache and a HOME with no user settings. */
function sharedFolder(): string {
  installedImprint(); // sets IMPRINT_TEST_INSTALL when this process made the installation itself
  const dir = path.join(process.env.IMPRINT_TEST_INSTALL!, 'template-projects');
  fs.mkdirSync(path.join(dir, 'home'), { recursive: true });
  return dir;
}

/** What the install of a project depends on: its manifest and lockfile. */
function manifestDigest(dir: string): string {
  const hash = crypto.createHash('sha256');
  for (const file of ['package.json', 'package-lock.json']) hash.update(fs.readFileSync(path.join(dir, file)));
  return hash.digest('hex');
}

const MARKER = path.join('node_modules', '.imprint-test-installed');

async function install(dir: string): Promise<void> {
  const digest = manifestDigest(dir);
  const marker = path.join(dir, MARKER);
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === digest) return;
  const shared = sharedFolder();
  // npm of its own, not the one running the tests (npm_* settings) nor with the checkout guard (NODE_OPTIONS).
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'NODE_OPTIONS'));
  const env = {
    ...inherited,
    HOME: path.join(shared, 'home'),
    npm_config_cache: path.join(shared, 'npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  try {
    await execFileAsync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: dir, env, timeout: INSTALL_DEADLINE_MS, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stderr, killed } = error as { stderr?: string; killed?: boolean };
    throw new Error(`npm ci in the fixture project ${dir} ${killed ? `did not finish within ${INSTALL_DEADLINE_MS / 60_000} minutes` : 'failed'}:\n${stderr ?? (error as Error).message}`, { cause: error });
  }
  fs.writeFileSync(marker, digest);
}

const installs = new Map<string, Promise<string>>();

/** A staged fixture project (a folder under INPUTS) with its packages installed; answers its folder. */
export function installedFixture(dir: string): Promise<string> {
  let installing = installs.get(dir);
  if (!installing) {
    if (!fs.existsSync(path.join(dir, 'package-lock.json'))) throw new Error(`No fixture project with a lockfile at ${dir} (staged before it was added? rebuild IMPRINT_TEST_INSTALL)`);
    installing = install(dir).then(() => dir);
    installs.set(dir, installing);
  }
  return installing;
}

/** The staged copy of test/fixtures/projects/<name> with its packages installed. */
export const installedProject = (name: string): Promise<string> => installedFixture(path.join(PROJECTS, name));
