/**
 * The props a template can be previewed with in the studio: `<Name>.props.json` (what `dev`
 * prints by default) and the snapshot fixtures `<Name>.<label>.props.json` beside it, found
 * the way `imprint snapshot` finds them; "save as fixture" writes a new one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ImprintError } from '../../core/errors.js';
import { snapshotCases } from '../../core/snapshot/snapshot-cases.js';

export interface PropsFixture {
  /** The file name, as the studio's URL names it: "Invoice.props.json", "Invoice.long.props.json". */
  file: string;
}

const baseName = (templateFile: string) => path.basename(templateFile).replace(/\.[^.]+$/, '');

export function listFixtures(templateFile: string): PropsFixture[] {
  const own = path.join(path.dirname(templateFile), `${baseName(templateFile)}.props.json`);
  const fixtures = snapshotCases(templateFile).flatMap((c) => (c.propsFile ? [c.propsFile] : []));
  return [...(fs.existsSync(own) ? [own] : []), ...fixtures].map((file) => ({ file: path.basename(file) }));
}

/** Only a fixture of this template, by its listed name: the name comes from a URL. */
function fixturePath(templateFile: string, file: string): string {
  if (!listFixtures(templateFile).some((fixture) => fixture.file === file)) {
    throw new ImprintError('NOT_FOUND', `${file} is not a props file of ${path.basename(templateFile)}.`);
  }
  return path.join(path.dirname(templateFile), file);
}

export function readFixture(templateFile: string, file: string): unknown {
  const text = fs.readFileSync(fixturePath(templateFile, file), 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ImprintError('INVALID_INPUT', `${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}

const LABEL = /^[A-Za-z0-9][\w-]{0,63}$/;

/** Writes `<Name>.<label>.props.json`; an existing file is not overwritten. */
export function saveFixture(templateFile: string, label: string, props: unknown): PropsFixture {
  if (!LABEL.test(label)) throw new ImprintError('INVALID_INPUT', `"${label}" cannot name a fixture: use letters, digits, - and _ (e.g. "long-address").`);
  if (typeof props !== 'object' || props === null || Array.isArray(props)) throw new ImprintError('INVALID_INPUT', 'Props must be a JSON object.');
  const file = `${baseName(templateFile)}.${label}.props.json`;
  const target = path.join(path.dirname(templateFile), file);
  try {
    fs.writeFileSync(target, `${JSON.stringify(props, null, 2)}\n`, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new ImprintError('INVALID_INPUT', `${file} exists already: choose another label.`, { cause: error });
    throw error;
  }
  return { file };
}
