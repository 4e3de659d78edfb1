/**
 * The template files a command works on: files as given, and for a folder the .tsx/.jsx
 * files directly in it (not its subfolders, where components and static files live).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ImprintError } from '../../core/errors.js';

const TEMPLATE_FILE = /\.(tsx|jsx)$/;

function templatesIn(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && TEMPLATE_FILE.test(entry.name) && !entry.name.startsWith('.'))
    .map((entry) => path.join(dir, entry.name))
    .sort();
}

export function resolveTemplateFiles(args: string[], defaultDir: string): string[] {
  const given = args.length > 0 ? args : [defaultDir];
  const files = given.flatMap((arg) => {
    const stat = fs.statSync(arg, { throwIfNoEntry: false });
    if (!stat) {
      throw new ImprintError('USAGE', args.length > 0 ? `No such file or folder: ${arg}.` : `No ${defaultDir}/ folder here: give the template files, e.g. \`imprint check templates/Invoice.tsx\`.`);
    }
    return stat.isDirectory() ? templatesIn(arg) : [arg];
  });
  if (files.length === 0) throw new ImprintError('USAGE', `No .tsx or .jsx templates in ${given.join(', ')}.`);
  return files.map((file) => path.resolve(file));
}
