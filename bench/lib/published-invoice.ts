/** The benchmark's invoice bundled and published as `invoice` in a data folder, as the CLI's `render invoice` finds it. */
import type { Artifact } from '../../src/core/artifact.js';
import { encodeArtifact } from '../../src/core/artifact.js';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import { openStore } from '../../src/core/store/index.js';
import { INVOICE } from './invoice.js';

export async function publishInvoice(dataDir: string): Promise<Artifact> {
  const { artifact } = await bundleTemplate(INVOICE);
  const store = openStore({ dataDir });
  await store.publishTemplate((await store.ensureTeam('local')).id, 'invoice', encodeArtifact(artifact), { sourceName: artifact.sourceName });
  await store.close();
  return artifact;
}
