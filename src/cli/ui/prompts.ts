/** The interactive questions of `imprint login`, on a terminal only (@inquirer/prompts). */
import { ImprintError } from '../../core/errors.js';
import { inCi } from '../../backend/environment.js';

// @inquirer/prompts is loaded on first question: most runs never ask one.
const prompts = () => import('@inquirer/prompts');

/** Ctrl-C at a prompt is the person's choice, not a crash: a short message, not a stack. */
async function asked(question: () => Promise<string>): Promise<string> {
  try {
    return await question();
  } catch (error) {
    if ((error as Error)?.name === 'ExitPromptError') throw new ImprintError('USAGE', 'Cancelled: nothing was stored.', { cause: error });
    throw error;
  }
}

/** Prompts need a person: a terminal on both ends, and not CI. */
export const canPrompt = () => Boolean(process.stdin.isTTY) && Boolean(process.stderr.isTTY) && !inCi();

export async function askApiUrl(current?: string): Promise<string> {
  const { input } = await prompts();
  return asked(() => input({ message: 'Imprint API URL', default: current, required: true }, { output: process.stderr }));
}

export async function askApiKey(): Promise<string> {
  const { password } = await prompts();
  return asked(() =>
    password({ message: 'API key', mask: '*', validate: (value) => value.trim() !== '' || 'Enter the key the operator gave you.' }, { output: process.stderr }),
  );
}
