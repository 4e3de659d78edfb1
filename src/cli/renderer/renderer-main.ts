/** The renderer process's start: its settings come as one JSON argument from the CLI that started it. */
import { runRenderer, type RendererSpec } from './renderer-process.js';

export async function runRendererFromArgs(specJson: string | undefined): Promise<void> {
  if (!specJson) throw new Error('The renderer is started by the CLI itself (imprint renderer start), not by hand.');
  await runRenderer(JSON.parse(specJson) as RendererSpec);
}
