/**
 * The import graph of src/ keeps the house's shape (.dependency-cruiser.mjs says the rules and why):
 * no cycle, type-only imports included; nothing imports the CLI; core and backend never import a face;
 * the browser wing (src/web) and the Node rooms never import each other.
 * The second test plants each kind of violation in a small tree and checks that the same rules catch it,
 * so the first test cannot pass because a rule matches nothing.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { cruise, type ICruiseOptions, type IViolation } from 'dependency-cruiser';
import extractDepcruiseConfig from 'dependency-cruiser/config-utl/extract-depcruise-config';
import { ROOT, tempDir } from '../helpers/checkout.js';

// The rules as `npx depcruise src` reads them (validated by dependency-cruiser's own schema).
const rules = await extractDepcruiseConfig(path.join(ROOT, '.dependency-cruiser.mjs'));

async function violationsIn(baseDir: string, options: ICruiseOptions = rules.options ?? {}): Promise<{ violations: IViolation[]; unresolvedLocal: string[] }> {
  const result = await cruise(['src'], { ...options, baseDir, validate: true, ruleSet: { forbidden: rules.forbidden } });
  if (typeof result.output === 'string') throw new Error('dependency-cruiser returned text, not a result');
  // A relative import that does not resolve hides an edge: the rules would pass over it unseen.
  const unresolvedLocal = result.output.modules.flatMap((module) =>
    module.dependencies.filter((dependency) => dependency.couldNotResolve && dependency.module.startsWith('.')).map((dependency) => `${module.source} imports ${dependency.module}`),
  );
  return { violations: result.output.summary.violations, unresolvedLocal };
}

function describe(violation: IViolation): string {
  const cycle = violation.cycle?.length ? `  (cycle: ${violation.cycle.map((step) => step.name).join(' -> ')})` : '';
  return `${violation.rule.name}: ${violation.from} -> ${violation.to}${cycle}`;
}

test('src/: no cycle, no import into the CLI, none upward, none between the browser wing and Node', { timeout: 120_000 }, async () => {
  const { violations, unresolvedLocal } = await violationsIn(ROOT);
  assert.deepEqual(unresolvedLocal, [], 'every relative import resolves');
  assert.deepEqual(violations.map(describe), []);
});

test('the rules catch what they forbid: a type-only cycle, a runtime cycle, the library importing the CLI, core importing a face (its allow-list), web importing Node and back', { timeout: 60_000 }, async () => {
  const root = tempDir('imprint-import-graph-');
  try {
    const files: Record<string, string> = {
      'src/core/a.ts': "import type { B } from './b.js';\nexport type A = { b?: B };\n",
      'src/core/b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n",
      'src/core/run-a.ts': "import { b } from './run-b.js';\nexport const a = () => b();\n",
      'src/core/run-b.ts': "import { a } from './run-a.js';\nexport const b = (): unknown => a;\n",
      'src/core/upward.ts': "import { serve } from '../server/serve.js';\nexport const up = serve;\n",
      'src/server/serve.ts': 'export const serve = 1;\n',
      'src/cli/flag.ts': 'export const flag = 1;\n',
      'src/lib/index.ts': "import { flag } from '../cli/flag.js';\nexport const lib = flag;\n",
      'src/web/shared/view.ts': "import type { A } from '../../core/a.js';\nexport type View = A;\n",
      'src/backend/uses-web.ts': "import type { View } from '../web/shared/view.js';\nexport type Uses = View;\n",
    };
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
    // The planted tree has no tsconfig of its own: resolve as the project does, without it.
    const { tsConfig: _projectTsConfig, ...options } = rules.options ?? {};
    const { violations } = await violationsIn(root, options);
    const caught = new Set(violations.map((violation) => `${violation.rule.name}: ${violation.from}`));
    for (const expected of [
      'no-circular: src/core/a.ts',
      'no-circular: src/core/run-a.ts',
      'nothing-imports-the-cli: src/lib/index.ts',
      'core-imports-only-runtime: src/core/upward.ts',
      'lib-imports-only-backend-core: src/lib/index.ts',
      'web-stays-in-the-browser: src/web/shared/view.ts',
      'node-does-not-import-web: src/backend/uses-web.ts',
    ]) {
      assert.ok(caught.has(expected), `${expected} is caught (caught: ${[...caught].join('; ')})`);
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
