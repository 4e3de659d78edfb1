/**
 * What `npm install` gives a templates project for the type check (React's types and a
 * TypeScript), made outside the checkout: the installed imprint may not read the checkout
 * (scripts/checkout-guard.mjs), so a project's node_modules cannot link into the checkout's.
 * React's types are copied once per test process from the checkout's node_modules; TypeScript
 * is the installed imprint's own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, tempDir } from './checkout.js';
import { installedImprint } from './installed.js';

let copies: string | undefined;

/**
 * A copy of one of the checkout's packages, outside it (made once per process), in a
 * node_modules of its own: TypeScript follows a project's link to it and resolves its imports
 * (@types/react's csstype) from beside the copy.
 */
export function borrowedPackage(name: string): string {
  copies ??= path.join(tempDir('imprint-borrowed-modules-'), 'node_modules');
  const copy = path.join(copies, name);
  if (!fs.existsSync(copy)) fs.cpSync(path.join(ROOT, 'node_modules', name), copy, { recursive: true, dereference: true });
  return copy;
}

/** The TypeScript the installed imprint depends on (outside the checkout). */
export const installedTypescript = (): string => path.join(installedImprint().packageRoot, 'node_modules', 'typescript');

/** Gives `project` a node_modules with @types/react, csstype and typescript, as `npm install` would. */
export function linkProjectModules(project: string): void {
  const modules = path.join(project, 'node_modules');
  fs.mkdirSync(path.join(modules, '@types'), { recursive: true });
  fs.symlinkSync(borrowedPackage(path.join('@types', 'react')), path.join(modules, '@types', 'react'), 'dir');
  fs.symlinkSync(borrowedPackage('csstype'), path.join(modules, 'csstype'), 'dir');
  fs.symlinkSync(installedTypescript(), path.join(modules, 'typescript'), 'dir');
}
