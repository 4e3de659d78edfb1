/**
 * Where a template lives: the project folder (nearest package.json above it, whose
 * node_modules and tsconfig the bundle uses) and its static folder (the nearest `static/`
 * between the template and the project root, served to the page at /static/).
 */
import fs from 'node:fs';
import path from 'node:path';

export interface TemplateLocation {
  file: string;
  projectDir: string;
  staticDir?: string;
}

const isDir = (p: string) => fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;

export function locateTemplate(templateFile: string): TemplateLocation {
  const file = path.resolve(templateFile);
  let projectDir: string | undefined;
  let staticDir: string | undefined;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (!staticDir && isDir(path.join(dir, 'static'))) staticDir = path.join(dir, 'static');
    if (fs.existsSync(path.join(dir, 'package.json'))) {
      projectDir = dir;
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  return { file, projectDir: projectDir ?? path.dirname(file), staticDir };
}
