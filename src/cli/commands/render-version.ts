/** Which published version `imprint render` renders: `invoice@3`, `--version 3`, or the latest. */
import { Option } from 'commander';
import { ImprintError } from '../../core/errors.js';
import { parseTemplateVersionText, splitVersionedRef } from '../../core/template-version.js';
import { RENDER_VERSION_OPTION } from '../render-version-flag.js';

/**
 * `--version <n>` is shown in help; what carries it is the hidden `--template-version`, to
 * which render-version-flag.ts routes it (the program's own --version would take it otherwise).
 */
export function versionOptions(): Option[] {
  return [
    new Option('--version <n>', 'render this published version instead of the latest (same as <id>@<n>; `imprint versions <id>` lists them)'),
    new Option(`${RENDER_VERSION_OPTION} <n>`).hideHelp(),
  ];
}

export function pinnedTemplate(given: string, asFile: boolean, versionFlag: string | undefined): { ref: string; version?: number } {
  const flagVersion = versionFlag === undefined ? undefined : parseTemplateVersionText(versionFlag);
  if (asFile) {
    if (flagVersion !== undefined) {
      throw new ImprintError('USAGE', `--version pins a published template; ${given} is a file, rendered as it is now. Publish it and render its id instead.`);
    }
    return { ref: given };
  }
  const { id, version } = splitVersionedRef(given);
  if (version !== undefined && flagVersion !== undefined && version !== flagVersion) {
    throw new ImprintError('USAGE', `Two versions given: ${given} and --version ${flagVersion}. Give one.`);
  }
  return { ref: id, version: version ?? flagVersion };
}
