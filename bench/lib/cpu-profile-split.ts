/**
 * A Node CPU profile (node --cpu-prof) split into the render's steps: each sample goes to the
 * innermost function on its stack that names a step (STEPS), so time spent in a helper (zlib,
 * Buffer.concat, a latin1 string) counts for the step that called it. What no step claims is
 * "other" (the CLI's own start, puppeteer's protocol traffic, writing the files), garbage
 * collection apart. Given in ms per document, so a batch of any size reads alike.
 */
import fs from 'node:fs';

/** Function name (as the bundle keeps it) -> the step it is. */
export const STEPS: Record<string, string> = {
  callRender: 'render',
  printToPdf: 'print',
  readPageFacts: 'facts',
  renumberStructureIds: 'ids',
  finishPdf: 'info',
  // The default render's one pass (finish-print.ts): its Info read, then its packing.
  finishPdfPacked: 'info',
  finishAccessibility: 'a11y',
  addFormFields: 'fields',
  packObjectStreams: 'pack',
  packObjectStreamsWith: 'pack',
};

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** ms per document by step, plus `gc`, `other` and `busy` (every sample but idle). */
export function splitProfile(file: string, docs: number): Record<string, number> {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stepOf = new Map<number, string>();
  const step = (id: number): string => {
    const known = stepOf.get(id);
    if (known) return known;
    const name = byId.get(id)!.callFrame.functionName;
    const up = parent.get(id);
    const own = Object.hasOwn(STEPS, name) ? STEPS[name] : undefined;
    const found = name === '(garbage collector)' ? 'gc' : name === '(idle)' ? 'idle' : (own ?? (up === undefined ? 'other' : step(up)));
    stepOf.set(id, found);
    return found;
  };
  const ms: Record<string, number> = {};
  profile.samples.forEach((id, i) => {
    const name = step(id);
    ms[name] = (ms[name] ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000;
  });
  const perDoc: Record<string, number> = {};
  let busy = 0;
  for (const [name, total] of Object.entries(ms)) {
    if (name === 'idle') continue;
    perDoc[name] = total / docs;
    busy += total / docs;
  }
  perDoc.busy = busy;
  return perDoc;
}

/** One line: busy ms per document and each step's share. */
export function describeProfile(file: string, docs: number): string {
  const split = splitProfile(file, docs);
  const order = ['busy', ...new Set(Object.values(STEPS)), 'gc', 'other'];
  return order.filter((name) => split[name] !== undefined).map((name) => `${name} ${split[name].toFixed(2)}`).join(', ') + ' (Node ms/doc)';
}
