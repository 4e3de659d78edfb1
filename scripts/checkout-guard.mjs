// The checkout guard (issue 35): loaded into every Node process of a test run (NODE_OPTIONS
// --import, set by scripts/run-tests.js), it acts only in the processes of the installed package
// under test (their main script is inside IMPRINT_TEST_GUARDED_ROOT: `imprint`, its renderer and
// its workers). There, a file access or a module load under the checkout (IMPRINT_TEST_CHECKOUT)
// is refused with EACCES and written to IMPRINT_TEST_GUARD_LOG, which the runner reads after each
// test file and fails the file on. The package must carry everything it reads at run time; a
// read that only works because the checkout sits beside dist/ (the colour profile in
// src/core/pdf/icc, the docs, the e-invoice rules) is found here, not by reading code.
//
// What tests hand the CLI as a user's input lives under the checkout too: templates-example/ and
// test/ (fixtures) stay readable, and so does .node/ (below). Nothing else does, the checkout's
// package.json, node_modules, src/, dist/, docs/ and rules/ included.
//
// Kept to node: built-ins and free of output: it runs inside every process the tests start.
import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const checkout = process.env.IMPRINT_TEST_CHECKOUT;
const guardedRoot = process.env.IMPRINT_TEST_GUARDED_ROOT;
const log = process.env.IMPRINT_TEST_GUARD_LOG;
// .node/ is the Node runtime scripts/node-runtime.sh installs for this machine (a user's Node
// lives outside their project too); the installed CLI runs on it and may look up PATH in it.
const USER_INPUT = ['templates-example', 'test', '.node'];

function mainScript() {
  if (!process.argv[1]) return undefined;
  try {
    return fs.realpathSync(process.argv[1]);
  } catch {
    return undefined;
  }
}

const entry = mainScript();
if (checkout && guardedRoot && log && entry && entry.startsWith(guardedRoot + path.sep)) install(checkout, log);

function install(root, logFile) {
  const allowed = USER_INPUT.map((folder) => path.join(root, folder) + path.sep);
  const forbidden = (target) => {
    let file;
    if (target instanceof URL) file = target.protocol === 'file:' ? fileURLToPath(target) : undefined;
    else if (typeof target === 'string') file = target.startsWith('file:') ? fileURLToPath(target) : path.resolve(target);
    else if (Buffer.isBuffer(target)) file = path.resolve(target.toString());
    if (file === undefined) return undefined;
    if (file !== root && !file.startsWith(root + path.sep)) return undefined;
    if (allowed.some((prefix) => (file + path.sep).startsWith(prefix))) return undefined;
    return file;
  };
  const record = (operation, file) => {
    const caller = new Error().stack?.split('\n').slice(3, 6).map((line) => line.trim()).join(' < ') ?? '';
    fs.appendFileSync(logFile, `${JSON.stringify({ pid: process.pid, entry, operation, file, caller })}\n`);
    const error = new Error(`EACCES: the installed package read the checkout (${operation} ${file}); it must carry what it reads`);
    error.code = 'EACCES';
    error.path = file;
    return error;
  };

  // Every fs function whose first argument is a path (the ones that take two paths check both).
  const PATH_FIRST = [
    'access', 'appendFile', 'chmod', 'chown', 'copyFile', 'cp', 'createReadStream', 'createWriteStream', 'exists', 'lstat', 'mkdir',
    'open', 'openAsBlob', 'opendir', 'readdir', 'readFile', 'readlink', 'realpath', 'rename', 'rm', 'rmdir', 'stat', 'statfs', 'symlink',
    'truncate', 'unlink', 'utimes', 'watch', 'watchFile', 'writeFile',
  ];
  const TWO_PATHS = new Set(['copyFile', 'cp', 'rename', 'symlink', 'link']);
  const wrap = (target, name, kind) => {
    const original = target[name];
    if (typeof original !== 'function') return;
    const guarded = function (...args) {
      const file = forbidden(args[0]) ?? (TWO_PATHS.has(name.replace(/Sync$/, '')) ? forbidden(args[1]) : undefined);
      if (file !== undefined) {
        const error = record(name, file);
        if (name === 'existsSync') return false;
        if (kind === 'promise') return Promise.reject(error);
        if (kind === 'callback' && typeof args.at(-1) === 'function') {
          const callback = args.at(-1);
          process.nextTick(() => (name === 'exists' ? callback(false) : callback(error)));
          return undefined;
        }
        throw error;
      }
      return original.apply(this, args);
    };
    Object.defineProperties(guarded, Object.getOwnPropertyDescriptors(original));
    target[name] = guarded;
  };
  for (const name of PATH_FIRST) {
    wrap(fs, name, name.startsWith('create') || name === 'watch' || name === 'watchFile' || name === 'openAsBlob' ? 'sync' : 'callback');
    wrap(fs, `${name}Sync`, 'sync');
    wrap(fs.promises, name, 'promise');
  }
  wrap(fs, 'link', 'callback');
  wrap(fs, 'linkSync', 'sync');
  wrap(fs.realpathSync, 'native', 'sync');
  module.syncBuiltinESMExports();

  // Module loads do not go through the public fs: a resolve hook sees each one (Node 22.15+).
  if (typeof module.registerHooks === 'function') {
    module.registerHooks({
      resolve(specifier, context, nextResolve) {
        const resolved = nextResolve(specifier, context);
        const file = resolved.url.startsWith('file:') ? forbidden(resolved.url) : undefined;
        if (file !== undefined) throw record('import', file);
        return resolved;
      },
    });
  }
}
