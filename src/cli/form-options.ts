/** render's flags for a template's fillable form (`<Field>`s from imprint/react; docs/finishing.md, Forms). */
import type { Command } from 'commander';
import type { RenderOptions } from '../core/render-request.js';

export interface FormFlags {
  flatten?: boolean;
}

export function addFormOptions(command: Command): Command {
  return command.option('--flatten', "the template's <Field>s drawn into the pages as plain content: the values print everywhere, nothing is left to fill in");
}

export function formOptions(flags: FormFlags): Pick<RenderOptions, 'flatten'> {
  return flags.flatten ? { flatten: true } : {};
}
