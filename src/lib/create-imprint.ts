/**
 * `createImprint()`: the library face over the backends the CLI uses (src/backend), so a Node
 * app gets the same engine, the same checks of its options and the same error codes as
 * `imprint render`. Embedded unless `apiUrl` is given; one browser pool per instance, started
 * on the first render and kept warm until close().
 */
import { wholePdf } from '../core/spool/spooled-pdf.js';
import type { Backend } from '../backend/backend.js';
import { browserSettings } from '../backend/browser-settings.js';
import { resolveDataDir } from '../backend/data-dir.js';
import { createEmbeddedBackend, type EmbeddedBackend } from '../backend/embedded.js';
import { processEnvironment } from '../backend/environment.js';
import { createLocalEgress } from '../backend/local-egress.js';
import { checkConnection as checkRemoteConnection, createRemoteBackend } from '../backend/remote.js';
import { withoutCredentials } from '../core/redact-secrets.js';
import { readTemplateSource, renderTemplateFile } from '../backend/template-file.js';
import { createTemplateCache, type TemplateCache } from '../backend/template-cache/template-cache.js';
import { templateCacheBytes } from '../backend/template-cache/cache-settings.js';
import { renderTimeoutMs } from '../backend/render-timeout.js';
import { isTemplateFile } from '../backend/template-ref.js';
import { ImprintError } from '../core/errors.js';
import { parseProps, parseRenderOptions, type RenderOptions as EngineRenderOptions } from '../core/render-request.js';
import { pdfOf } from '../core/result-forms.js';
import { chooseTemplateId, kebabCaseFromFileName } from '../core/template-id.js';
import { callerStack, publicAsync, throwAsCaller } from './public-error.js';
import { wirePartsOf } from './merge-parts.js';
import { callerSigner, requestSignField, type OpenedKeys } from './sign-option.js';
import type { DocumentOptions, GenerateOptions, GenerateSource, Imprint, ImprintOptions, PublishOptions, RenderOptions } from './types.js';

/**
 * The options as a render request's fields, checked by the rules the CLI and the server use.
 * Every option but the e-invoice and an own key's sign is the request's field of the same name,
 * so each passes on as it is; the e-invoice is the request's two fields (einvoice, einvoiceProfile).
 */
function engineOptions(options: DocumentOptions & { version?: number } = {}): EngineRenderOptions {
  const { einvoice, version: _published, prepend, append, sign, ...fields } = options;
  // The caller's own key signs in this process (sign-option.ts); only the team key's sign is the request's.
  const teamKey = requestSignField(sign);
  return parseRenderOptions({
    ...fields,
    format: 'pdf',
    ...(teamKey === undefined ? {} : { sign: teamKey }),
    ...(einvoice === undefined ? {} : { einvoice: einvoice.format, einvoiceProfile: einvoice.profile }),
    ...(prepend === undefined ? {} : { prepend: wirePartsOf(prepend) }),
    ...(append === undefined ? {} : { append: wirePartsOf(append) }),
  });
}

function checkConnection(options: ImprintOptions): { apiUrl: string; apiKey: string } | undefined {
  if (options.apiUrl === undefined) {
    if (options.apiKey !== undefined) throw new ImprintError('USAGE', 'createImprint: apiKey is given without apiUrl. Give both to use an Imprint API, or neither to render on this machine.');
    return undefined;
  }
  if (!options.apiKey) throw new ImprintError('USAGE', `createImprint: apiUrl (${withoutCredentials(options.apiUrl)}) needs an apiKey: create one with \`imprint key create\` on the service.`);
  // Here rather than at the first call: a malformed URL or a key pasted with its line break is said where the instance is made.
  checkRemoteConnection({ apiUrl: options.apiUrl, apiKey: options.apiKey });
  return { apiUrl: options.apiUrl, apiKey: options.apiKey };
}

/** Its errors, and those of its methods, leave from the caller's line, never from a line of the minified dist/ (public-error.ts). */
export function createImprint(options: ImprintOptions = {}): Imprint {
  const failure = callerStack(createImprint);
  try {
    return createChecked(options);
  } catch (error) {
    throwAsCaller(failure, error);
  }
}

function createChecked(options: ImprintOptions): Imprint {
  const connection = checkConnection(options);
  const env = processEnvironment();
  const egress = createLocalEgress();
  egress.allowLocal(options.allowLocal ?? false);
  let embeddedBackend: EmbeddedBackend | undefined;
  let remoteBackend: Backend | undefined;
  let templates: TemplateCache | undefined;
  let closed = false;
  const openedKeys: OpenedKeys = new Map();

  const alive = () => {
    if (closed) throw new ImprintError('USAGE', 'This Imprint instance is closed: make a new one with createImprint().');
  };
  // Local template files always render here, as with the CLI; published ones where they live.
  const embedded = (): EmbeddedBackend => {
    alive();
    const browser = browserSettings(options.browser, env);
    return (embeddedBackend ??= createEmbeddedBackend({
      dataDir: resolveDataDir({ dataDir: options.dataDir }, env),
      renderTimeoutMs: renderTimeoutMs(undefined, env),
      browserSearch: browser.search,
      browserEnv: browser.env,
      runningAsRoot: browser.runningAsRoot,
      egress,
    }));
  };
  /** The local template cache of the data folder, as the CLI's: a file rendered or published again is not bundled again. */
  const templateCache = (): TemplateCache =>
    (templates ??= createTemplateCache({ dataDir: resolveDataDir({ dataDir: options.dataDir }, env), maxBytes: templateCacheBytes(env) }));
  const backend = (): Backend => {
    alive();
    return connection ? (remoteBackend ??= createRemoteBackend(connection)) : embedded();
  };

  return {
    render: publicAsync(async (idOrFile: string, props?: Record<string, unknown>, renderOptions: RenderOptions = {}) => {
      alive();
      const checked = engineOptions(renderOptions);
      const given = props === undefined ? undefined : parseProps(props);
      const asFile = isTemplateFile(idOrFile);
      if (asFile && renderOptions.version !== undefined) throw new ImprintError('USAGE', `version is for published templates; ${idOrFile} is a file, rendered as it is now.`);
      // Before anything renders: a wrong password rejects now, not after the print.
      const sign = await callerSigner(renderOptions.sign, asFile ? 'template file' : connection ? undefined : 'embedded', openedKeys);
      const { result } = asFile ? await renderTemplateFile(embedded(), templateCache(), idOrFile, given, checked) : await backend().render(idOrFile, given, checked, renderOptions.version);
      // The signature names what made the document as the CLI's does (render.ts): the template's id, or a file's kebab-case name.
      const madeBy = { template: asFile ? kebabCaseFromFileName(idOrFile) : idOrFile, version: renderOptions.version };
      return wholePdf(pdfOf(sign ? await sign(result, madeBy, checked.encrypt) : result));
    }),

    generate: publicAsync(async (source: GenerateSource, generateOptions?: GenerateOptions) => {
      alive();
      if (source?.html === undefined && source?.url === undefined) throw new ImprintError('USAGE', 'generate needs html, url or both: generate({ html: "<h1>Hi</h1>" }).');
      const checked = engineOptions(generateOptions);
      const sign = await callerSigner(generateOptions?.sign, connection ? undefined : 'embedded', openedKeys);
      const result = await backend().generate({ html: source.html, url: source.url }, checked);
      return wholePdf(pdfOf(sign ? await sign(result, {}, checked.encrypt) : result));
    }),

    publish: publicAsync(async (file: string, publishOptions: PublishOptions = {}) => {
      alive();
      const { artifact, derived } = await templateCache().prepare(file);
      const id = chooseTemplateId({ explicitId: publishOptions.id, source: readTemplateSource(file), file });
      const published = await backend().publish(id, artifact, { propsSchema: derived.kind === 'schema' ? derived.schema : undefined });
      return { id: published.id, version: published.version, publishedAt: published.publishedAt };
    }),

    list: publicAsync(async () => (await backend().list()).map(({ id, latestVersion, publishedAt }) => ({ id, version: latestVersion, publishedAt }))),

    close: publicAsync(async () => {
      if (closed) return;
      closed = true;
      openedKeys.clear();
      try {
        await embeddedBackend?.close();
        await remoteBackend?.close();
      } finally {
        await egress.close();
      }
    }),
  };
}
