// The import rules of src/, checked by test/unit/import-graph.test.ts and by hand with
// `npx depcruise src` (dependency-cruiser reads this file by its name).
//
// Why these rules: the house is layered (design.md): the faces (cli, lib, server) stand on one
// local layer (backend) on the core; the browser apps (web) run in a page, never in Node. A face
// importing another face, or a room importing upward, is how a library ends up needing its CLI.
// The one arrow allowed between faces is the CLI starting the server (`imprint serve`).

/** Rooms whose code runs in Node (a page cannot load them, and browser code must not reach them). */
const NODE_ROOMS = '^src/(cli|lib|server|backend|core|client)/';

/** The JSON shapes a browser app and its server exchange: types only, no DOM, no Node (src/web/studio/protocol.ts). */
const WEB_PROTOCOL = '^src/web/[^/]+/protocol\\.ts$';

/**
 * What each room under the faces may import besides itself: the layers run one way, down
 * (cli and lib over backend over core; the server and the client over core). The faces (cli,
 * web) and the page's rooms (runtime, react, compat) are governed by the rules below instead.
 */
const MAY_IMPORT = {
  core: ['runtime'],
  client: ['core'],
  backend: ['core', 'client'],
  lib: ['backend', 'core'],
  server: ['core', 'client'],
};
const ROOMS = ['cli', 'lib', 'server', 'backend', 'core', 'client', 'web', 'runtime', 'react', 'compat'];

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    ...Object.entries(MAY_IMPORT).map(([room, allowed]) => ({
      name: `${room}-imports-only-${allowed.join('-')}`,
      severity: 'error',
      comment: `src/${room} may import only src/${allowed.join(', src/')} besides itself: the layers run down, never up or across.`,
      from: { path: `^src/${room}/` },
      to: { path: `^src/(${ROOMS.filter((other) => other !== room && !allowed.includes(other)).join('|')})/` },
    })),
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle (type-only imports included) ties its modules into one unit that can only be read, tested and moved together.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'nothing-imports-the-cli',
      severity: 'error',
      comment: 'The CLI is a face: the library, the server and the layers under them must not need it. Move what both use down into src/backend or src/core.',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'web-stays-in-the-browser',
      severity: 'error',
      comment: 'src/web runs in a page: an import (even type-only) into a Node room drags Node code and types into the browser build. Put what both need in src/web/shared or pass it in.',
      from: { path: '^src/web/' },
      to: { path: NODE_ROOMS },
    },
    {
      name: 'node-does-not-import-web',
      severity: 'error',
      comment: 'Node code reaches the browser apps through their built assets (the manifest), not by importing their source; only the JSON shapes an app and its server exchange (src/web/<app>/protocol.ts) are shared, as types.',
      from: { path: NODE_ROOMS },
      to: { path: '^src/web/', pathNot: WEB_PROTOCOL },
    },
    {
      name: 'web-protocol-is-types-only-for-node',
      severity: 'error',
      comment: 'A protocol file is the shape of JSON on the wire: Node imports it as types (import type), never code.',
      from: { path: NODE_ROOMS },
      to: { path: WEB_PROTOCOL, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    // Type-only imports count: a circle through types is still a circle to read.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      // Source imports say './x.js' for './x.ts' (Node ESM style under moduleResolution Bundler).
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
  },
};
