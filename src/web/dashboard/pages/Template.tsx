/** One template: its versions (roll back to one), its props schema, and a try-it form that renders the PDF inline. */
import { useState } from 'react';
import { pageMeta } from '../../shared/page-meta.js';
import { PdfView } from '../../shared/pdf-view.js';
import { PropsEditor } from '../../shared/props-editor.js';
import { send, sendForBytes } from '../api.js';
import { formatBytes, formatTime } from '../format.js';
import { Link } from '../router.js';
import { FinishingInput, finishingFields, NO_FINISHING } from './FinishingOptions.js';
import { MergePartsInput, NO_PARTS, partFields } from './MergeParts.js';
import { schemaValidator } from '../schema-validator.js';
import { signedOutIfGone, useLoad } from '../use-load.js';

/** pdf.js's worker, named by the page the service serves (src/server/dashboard/assets.ts). */
const PDF_WORKER_URL = pageMeta('imprint-pdf-worker');

interface Version {
  version: number;
  publishedAt: string;
  bytes: number;
  artifactSha256: string;
  sourceName: string | null;
  publishedBy: string | null;
  rollbackOf: number | null;
}

interface Details {
  id: string;
  uuid: string;
  createdAt: string;
  versions: Version[];
  propsSchema: object | null;
}

export function TemplatePage({ id, testSession }: { id: string; testSession: boolean }) {
  const { data, error, reload } = useLoad<Details>(`/dashboard/api/templates/${encodeURIComponent(id)}`);
  const [note, setNote] = useState<string>();
  const [props, setProps] = useState<unknown>({});
  // The rendered PDF with its user password, so the preview opens a protected file as its reader would.
  const [preview, setPreview] = useState<{ pdf: ArrayBuffer; password?: string }>();
  const [renderError, setRenderError] = useState<string>();
  const [rendering, setRendering] = useState(false);
  const [parts, setParts] = useState(NO_PARTS);
  // The accessibility boxes as ticked, as the API's defaults have them (docs/accessibility.md);
  // untagged, bookmarks and PDF/UA are off (and their ticks kept for when Tagged is ticked again).
  const [access, setAccess] = useState({ tagged: true, outline: true, pdfua: false });
  const accessFields = { tagged: access.tagged, outline: access.tagged && access.outline, pdfua: access.tagged && access.pdfua };
  const [finishing, setFinishing] = useState(NO_FINISHING);

  const rollback = async (version: number) => {
    if (!confirm(`Publish version ${version} of ${id} again as its latest version?`)) return;
    try {
      const rolled = await send<{ version: number }>('POST', `/dashboard/api/templates/${encodeURIComponent(id)}/rollback`, { version });
      setNote(`Version ${version} is published again as version ${rolled.version}.`);
      reload();
    } catch (reason) {
      signedOutIfGone(reason);
      setNote((reason as Error).message);
    }
  };

  const render = async () => {
    setRendering(true);
    setRenderError(undefined);
    try {
      const fields = { props, ...partFields(parts), ...accessFields, ...finishingFields(finishing) };
      setPreview({ pdf: await sendForBytes(`/dashboard/api/templates/${encodeURIComponent(id)}/render`, fields), password: fields.encrypt?.userPassword });
    } catch (reason) {
      signedOutIfGone(reason);
      setRenderError((reason as Error).message);
    } finally {
      setRendering(false);
    }
  };

  return (
    <main>
      <p className="crumbs">
        <Link to="/dashboard">Templates</Link> / {id}
      </p>
      <h1>{id}</h1>
      {error && <p className="error" role="alert">{error}</p>}
      {note && <p className="note" role="status">{note}</p>}
      {data && (
        <>
          <p className="meta">
            UUID <code>{data.uuid}</code> · created {formatTime(data.createdAt)}
          </p>
          <h2>Versions</h2>
          <table data-testid="versions">
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Published</th>
                <th scope="col">Size</th>
                <th scope="col">SHA-256</th>
                <th scope="col">Published by</th>
                <th scope="col"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {data.versions.map((version, index) => (
                <tr key={version.version}>
                  <td>
                    v{version.version}
                    {index === 0 && <span className="badge">latest</span>}
                    {version.rollbackOf !== null && <span className="badge muted">rollback of v{version.rollbackOf}</span>}
                  </td>
                  <td>{formatTime(version.publishedAt)}</td>
                  <td>{formatBytes(version.bytes)}</td>
                  <td>
                    <code title={version.artifactSha256}>{version.artifactSha256.slice(0, 12)}</code>
                  </td>
                  <td>{version.publishedBy ? <code>{version.publishedBy}</code> : 'local'}</td>
                  <td>
                    {index > 0 && (
                      <button type="button" className="secondary" onClick={() => void rollback(version.version)} data-rollback={version.version}>
                        Roll back to version {version.version}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>

          <div className="try-it">
            <section aria-labelledby="try-heading">
              <h2 id="try-heading">Try it</h2>
              <PropsEditor
                key={data.versions[0]?.version}
                schema={data.propsSchema ?? undefined}
                schemaNote={data.propsSchema ? undefined : 'this template was published without a props type, so its props are edited as JSON.'}
                value={props}
                errors={[]}
                onChange={setProps}
                validator={schemaValidator}
              />
              <MergePartsInput parts={parts} onChange={setParts} />
              <fieldset className="try-options" data-testid="try-it-options">
                <legend>Accessibility</legend>
                <label>
                  <input type="checkbox" name="tagged" checked={access.tagged} onChange={(event) => setAccess({ ...access, tagged: event.target.checked })} /> Tagged
                </label>
                <label>
                  <input type="checkbox" name="outline" checked={accessFields.outline} disabled={!access.tagged} onChange={(event) => setAccess({ ...access, outline: event.target.checked })} /> Bookmarks
                </label>
                <label>
                  <input type="checkbox" name="pdfua" checked={accessFields.pdfua} disabled={!access.tagged} onChange={(event) => setAccess({ ...access, pdfua: event.target.checked })} /> PDF/UA
                </label>
              </fieldset>
              <FinishingInput value={finishing} onChange={setFinishing} />
              <button type="button" onClick={() => void render()} disabled={rendering}>
                {rendering ? 'Rendering…' : 'Render PDF'}
              </button>
              <p className="hint" data-testid="try-it-hint">
                {testSession
                  ? 'Signed in with a test key: a render here is stamped TEST and not counted, like any test key\'s.'
                  : "A render here counts against the team's monthly limit, like any other."}
              </p>
              {renderError && <p className="error" role="alert">{renderError}</p>}
              <h2>Props schema</h2>
              {data.propsSchema ? <pre className="schema" data-testid="schema">{JSON.stringify(data.propsSchema, null, 2)}</pre> : <p className="empty">Published without a props schema.</p>}
            </section>
            <section className="pdf" aria-label="Rendered PDF">
              {preview ? <PdfView data={preview.pdf} zoom={0} workerUrl={PDF_WORKER_URL} password={preview.password} /> : <p className="empty">Fill in the props and render: the PDF shows here.</p>}
            </section>
          </div>
        </>
      )}
    </main>
  );
}
