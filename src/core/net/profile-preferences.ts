/**
 * Writes the egress preferences into a Chromium user data dir before launch. Chromium reads
 * `Default/Preferences` at start-up; the launcher owns the folder (a fresh temporary one per
 * browser, removed after) and passes it as puppeteer's `userDataDir`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { EGRESS_PROFILE_PREFERENCES } from './chromium-flags.js';

type Json = Record<string, unknown>;

function merge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const existing = out[key];
    out[key] =
      value && typeof value === 'object' && !Array.isArray(value) && existing && typeof existing === 'object' && !Array.isArray(existing)
        ? merge(existing as Json, value as Json)
        : value;
  }
  return out;
}

/** Adds the egress preferences to `<userDataDir>/Default/Preferences`, keeping what is there. */
export async function writeEgressProfilePreferences(userDataDir: string): Promise<void> {
  const file = path.join(userDataDir, 'Default', 'Preferences');
  await fs.mkdir(path.dirname(file), { recursive: true });
  let current: Json = {};
  try {
    current = JSON.parse(await fs.readFile(file, 'utf8')) as Json;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await fs.writeFile(file, JSON.stringify(merge(current, EGRESS_PROFILE_PREFERENCES as unknown as Json)));
}
