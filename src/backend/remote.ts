/**
 * The remote backend: the same Backend as the embedded engine, answered by an Imprint API
 * through the contract's client, so `publish`, `list`, `render` and `generate` print the same
 * thing in both modes (a `json` result is the service's download URL).
 */
import { stampField } from '../core/pdf/stamp-options.js';
import { checkClientOptions, createClient, type ApiClient } from '../client/client.js';
import type { Me, OutputFields } from '../client/types.js';
import { ImprintError } from '../core/errors.js';
import type { RenderOptions } from '../core/render-request.js';
import type { Backend } from './backend.js';
import { explainRemoteError } from './remote-errors.js';

export interface RemoteBackend extends Backend {
  readonly client: ApiClient;
  /** The key's team and usage (GET /api/me). */
  whoami(): Promise<Me>;
}

export function outputFields(options: RenderOptions): OutputFields {
  return {
    format: options.format,
    // As the user wrote it ("100mm 150mm", "letter"): the service parses it by the same rule.
    ...(options.size ? { size: options.size } : {}),
    ...(options.orientation ? { orientation: options.orientation } : {}),
    // The extension fields (docs/api.md), sent only when given: a plain Part A request otherwise.
    ...(options.tagged !== undefined ? { tagged: options.tagged } : {}),
    ...(options.outline !== undefined ? { outline: options.outline } : {}),
    ...(options.pdfua ? { pdfua: true } : {}),
    ...(options.deterministic !== undefined ? { deterministic: options.deterministic } : {}),
    ...(options.metadata ? { metadata: options.metadata } : {}),
    ...(options.pdfa ? { pdfa: options.pdfa } : {}),
    ...(options.flatten ? { flatten: true } : {}),
    ...(options.einvoice ? { einvoice: options.einvoice.format, einvoiceProfile: options.einvoice.profile } : {}),
    ...(options.prepend ? { prepend: options.prepend } : {}),
    ...(options.append ? { append: options.append } : {}),
    ...(options.stamp ? { stamp: stampField(options.stamp) } : {}),
    ...(options.encrypt ? { encrypt: options.encrypt } : {}),
    ...(options.optimizeImages ? { optimizeImages: options.optimizeImages } : {}),
    // The team's key on the service: { tsa } for B-T, else true (the parsed B-B is an empty object).
    ...(options.sign ? { sign: options.sign.tsa === undefined ? true : { tsa: options.sign.tsa } } : {}),
  };
}

/** The connection checked before any request (the client's rules): a bad URL or key is a usage error, a key over plain http to another machine warned about. */
export function checkConnection(connection: { apiUrl: string; apiKey: string }): void {
  checkClientOptions({ baseUrl: connection.apiUrl, apiKey: connection.apiKey });
}

export function createRemoteBackend(connection: { apiUrl: string; apiKey: string }): RemoteBackend {
  const client = createClient({ baseUrl: connection.apiUrl, apiKey: connection.apiKey });
  const explained = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw explainRemoteError(error, connection.apiUrl);
    }
  };

  return {
    client,
    description: `the Imprint API at ${connection.apiUrl}`,
    publish: (templateId, artifact, meta) =>
      explained(async () => {
        const { id, uuid, version, publishedAt } = await client.publish({ id: templateId, artifact, ...(meta?.propsSchema ? { propsSchema: meta.propsSchema } : {}) });
        return { id, uuid, version, publishedAt };
      }),
    list: () => explained(async () => (await client.listTemplates()).map(({ id, latestVersion, publishedAt }) => ({ id, latestVersion, publishedAt }))),
    render: (idOrUuid, props, options, version) => {
      if (props === undefined) {
        // A1 requires props; the PreviewProps live in the bundle, which only the page reads.
        return Promise.reject(
          new ImprintError(
            'USAGE',
            `No --props given. The Imprint API renders a published template only with props (POST /api/documents/{id} requires them): pass --props <file.json>, or render the template's source file (\`imprint render ./${idOrUuid}.tsx\`) to use its PreviewProps.`,
          ),
        );
      }
      return explained(async () => ({
        result: await client.renderDocument(idOrUuid, { props: props as Record<string, unknown>, ...outputFields(options), ...(version === undefined ? {} : { version }) }),
        usedPreviewProps: false,
      }));
    },
    versions: (idOrUuid) =>
      explained(async () => {
        const details = await client.getTemplate(idOrUuid);
        const versions = details.versions.map(({ version, publishedAt, bytes, artifactSha256, publishedBy, rollbackOf }) => ({
          version, publishedAt, bytes, artifactSha256, publishedBy: publishedBy ?? null, rollbackOf: rollbackOf ?? null,
        }));
        return { id: details.id, versions };
      }),
    rollback: (idOrUuid, version) =>
      explained(async () => {
        const { id, uuid, version: latest, publishedAt, rollbackOf } = await client.rollback(idOrUuid, version);
        return { id, uuid, version: latest, publishedAt, rollbackOf };
      }),
    whoami: () => explained(() => client.me()),
    generate: (source, options) => explained(() => client.generate({ ...source, ...outputFields(options) })),
    einvoice: (idOrUuid, props, request, version) => {
      if (props === undefined) return Promise.reject(new ImprintError('USAGE', 'No --props given. The Imprint API writes a published template\'s e-invoice only from props: pass --props <file.json>.'));
      return explained(async () => ({
        xml: await client.einvoiceDocument(idOrUuid, { props: props as Record<string, unknown>, syntax: request.syntax, profile: request.profile, ...(version === undefined ? {} : { version }) }),
        usedPreviewProps: false,
      }));
    },
    close: () => client.close(),
  };
}
