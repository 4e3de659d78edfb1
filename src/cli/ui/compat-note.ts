import { guideFile } from '../../core/guides.js';

/** The one line that says a template's imports of another tool's package were given Imprint's compatible version. */
const NOTES: Record<string, () => string> = {
  '@htmldocs/react': () => `Used Imprint's @htmldocs/react components (native page size, margin boxes and page numbers; no Paged.js): see ${guideFile('htmldocs')}.`,
};

export const compatNote = (compat: readonly string[]): string[] => compat.map((name) => NOTES[name]?.() ?? `Used Imprint's compatible version of ${name}.`);
