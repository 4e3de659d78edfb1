/**
 * The studio: the templates of the folder on the left, the props editor, the live HTML view
 * (the template's own artifact in an iframe, laid out in pages) and the printed PDF, which
 * follows in the background and is marked stale until it catches up. The URL names the
 * template and its props (`?t=Invoice&props=Invoice.long.props.json`) so a view can be bookmarked.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, type TemplateDetails, type TemplateState } from './api.js';
import { ErrorOverlay, type ShownError } from './overlay.js';
import { A11yPanel } from './a11y-panel.js';
import { pageMeta } from '../shared/page-meta.js';
import { PdfView } from '../shared/pdf-view.js';
import validator from '@rjsf/validator-ajv8';
import { PropsEditor } from '../shared/props-editor.js';
import type { FrameRenderResult } from './frame.js';

const PREVIEW_PROPS = 'PreviewProps';
/** The PDF is printed once edits pause for this long: a print costs seconds, an edit comes every keystroke. */
const PRINT_PAUSE_MS = 600;

function readRoute() {
  const params = new URLSearchParams(location.search);
  return { template: params.get('t') ?? undefined, props: params.get('props') ?? undefined };
}

function writeRoute(template: string, props: string | undefined) {
  const params = new URLSearchParams({ t: template, ...(props ? { props } : {}) });
  history.replaceState(null, '', `?${params}`);
}

type FrameWindow = Window & { __studio?: { render(props: unknown): Promise<FrameRenderResult>; previewProps(): unknown } };

/** pdf.js's worker, named by the page `imprint dev` serves (src/cli/dev/studio-page.ts). */
const PDF_WORKER_URL = pageMeta('imprint-pdf-worker');

export function App() {
  const [templates, setTemplates] = useState<TemplateState[]>([]);
  const [route, setRoute] = useState(readRoute);
  const [details, setDetails] = useState<TemplateDetails>();
  const [props, setProps] = useState<unknown>();
  const [propsErrors, setPropsErrors] = useState<string[]>([]);
  const [frameError, setFrameError] = useState<ShownError>();
  const [frameLoaded, setFrameLoaded] = useState(0);
  const [renders, setRenders] = useState(0);
  /** How long the last render in the HTML view took (the template, then Paged.js's layout). */
  const [renderMs, setRenderMs] = useState(0);
  const [pages, setPages] = useState(0);
  /** 0: fit the page's width to the view. */
  const [zoom, setZoom] = useState(0);
  const [pdf, setPdf] = useState<{ url: string; data?: ArrayBuffer; key: string; pages: number; error?: string; problems: string[] }>();
  /** Images the HTML view's last render could not load. */
  const [failedImages, setFailedImages] = useState<string[]>([]);
  const [label, setLabel] = useState('');
  const [saveNote, setSaveNote] = useState<string>();
  /** The frame of the newest artifact, where every render goes. */
  const frame = useRef<HTMLIFrameElement>(null);
  const frameBox = useRef<HTMLDivElement>(null);
  /**
   * The frame on show: a new artifact's frame replaces it only once it rendered well, so a
   * save that breaks the render leaves the last good pages in view under the error.
   */
  const [shown, setShown] = useState<{ name: string; version: number }>();

  // The list as the event stream opens (and again if it reconnects), then every change the
  // server announces (a save, a build, a print, a new file), in order. A list fetched apart
  // from the stream could be older than an event already applied, or miss a build that
  // finished before the stream opened: the studio would wait on a template for good.
  useEffect(() => {
    const events = new EventSource('/events');
    events.addEventListener('list', (event) => setTemplates(JSON.parse((event as MessageEvent).data) as TemplateState[]));
    events.onmessage = (event) => {
      const state = JSON.parse(event.data) as TemplateState;
      setTemplates((list) => (list.some((t) => t.name === state.name) ? list.map((t) => (t.name === state.name ? state : t)) : [...list, state]));
    };
    events.addEventListener('removed', (event) => {
      const { name } = JSON.parse((event as MessageEvent).data) as { name: string };
      setTemplates((list) => list.filter((t) => t.name !== name));
    });
    return () => events.close();
  }, []);

  const name = route.template ?? templates[0]?.name;
  const current = templates.find((t) => t.name === name);
  const artifactVersion = current?.artifactVersion ?? 0;
  const visibleVersion = shown && shown.name === name && shown.version < artifactVersion ? shown.version : artifactVersion;

  // Its schema and fixtures: again after each build, the props type may have changed. Asked
  // once the new artifact's frame has loaded: deriving the schema (the TypeScript compiler)
  // holds the server for a moment, which must not delay the frame.
  useEffect(() => {
    if (!name) return;
    void api.details(name).then(setDetails);
  }, [name, frameLoaded]);

  const propsSource = route.props ?? (details?.fixtures.some((f) => f.file === `${name}.props.json`) ? `${name}.props.json` : PREVIEW_PROPS);

  // Seeded from the fixture; the PreviewProps are read from the template itself once its frame loads.
  useEffect(() => {
    setProps(undefined);
    if (!name || !details || propsSource === PREVIEW_PROPS) return;
    void api.fixture(name, propsSource).then(setProps);
  }, [name, propsSource, details === undefined]);
  useEffect(() => {
    if (propsSource !== PREVIEW_PROPS || props !== undefined || !frameLoaded) return;
    const win = frame.current?.contentWindow as FrameWindow | null;
    setProps(win?.__studio?.previewProps() ?? {});
  }, [propsSource, props, frameLoaded]);

  // Every change of the props or of the artifact renders the HTML view. New props are checked
  // first, as `render` checks them; after a save the props were checked already, so the new
  // artifact renders at once and the check (against a props type that may have changed) follows.
  const checked = useRef<unknown>(undefined);
  useEffect(() => {
    if (!name || props === undefined || !frameLoaded) return;
    let cancelled = false;
    const mismatch = (errors: string[]) => {
      setPropsErrors(errors);
      if (errors.length > 0) setFrameError({ title: `The props do not match ${name}'s props type`, message: errors.join('\n') });
      return errors.length > 0;
    };
    void (async () => {
      const recheck = checked.current === props;
      const validation = api.validate(name, props);
      if (!recheck) {
        const { errors } = await validation;
        if (cancelled || mismatch(errors)) return;
        checked.current = props;
      }
      const win = frame.current?.contentWindow as FrameWindow | null;
      if (!win?.__studio) return;
      const version = Number(frame.current!.dataset.version);
      const result = await win.__studio.render(props);
      if (cancelled) return;
      setRenders((n) => n + 1);
      setRenderMs(Math.round(result.ms));
      if (result.ok) {
        setFrameError(undefined);
        setPages(result.pages);
        setFailedImages(result.outcome.ok ? result.outcome.failedImages : []);
        setShown({ name, version });
      } else {
        const outcome = result.outcome as Extract<FrameRenderResult['outcome'], { ok: false }>;
        const { at } = await api.locate(name, outcome.error?.stack);
        if (cancelled) return;
        const where = at ? ` (at ${at.file}:${at.line}:${at.column})` : '';
        setFrameError({ title: 'The template threw while rendering', message: `${outcome.error?.message ?? outcome.reason}${where}`, at });
      }
      if (recheck) {
        const { errors } = await validation;
        if (!cancelled) mismatch(errors);
      }
    })().catch((error: Error) => !cancelled && setFrameError({ title: 'The preview failed', message: error.message }));
    return () => {
      cancelled = true;
    };
  }, [name, props, frameLoaded]);

  // The real PDF, printed in the background once the edits pause.
  const printKey = `${name}|${artifactVersion}|${JSON.stringify(props)}`;
  useEffect(() => {
    if (!name || props === undefined || !artifactVersion) return;
    let cancelled = false;
    const timer = setTimeout(async () => {
      const result = await api.print(name, props);
      const data = 'error' in result ? undefined : await result.pdf.arrayBuffer();
      if (cancelled) return;
      setPdf((old) => {
        if (old?.url) URL.revokeObjectURL(old.url);
        return 'error' in result
          ? { url: '', key: printKey, pages: 0, error: result.error, problems: [] }
          : { url: URL.createObjectURL(result.pdf), data, key: printKey, pages: result.pages, problems: result.problems };
      });
    }, PRINT_PAUSE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [printKey]);

  // The HTML view's zoom, applied inside the frame so its page boxes keep their true size ratios.
  useEffect(() => {
    for (const each of Array.from(frameBox.current?.querySelectorAll('iframe') ?? [])) {
      const doc = each.contentDocument;
      if (!doc?.documentElement) continue;
      const pageWidth = (doc.querySelector('.pagedjs_page') as HTMLElement | null)?.offsetWidth;
      const fit = pageWidth ? Math.min(1.5, (each.clientWidth - 40) / pageWidth) : 1;
      doc.documentElement.style.zoom = String(zoom || fit);
    }
  }, [zoom, frameLoaded, renders, visibleVersion]);

  const select = useCallback((template: string, propsFile?: string) => {
    writeRoute(template, propsFile);
    setRoute({ template, props: propsFile });
    setFrameError(undefined);
    setPropsErrors([]);
    setDetails(undefined);
  }, []);

  const saveFixture = async () => {
    if (!name) return;
    try {
      const saved = await api.saveFixture(name, label, props);
      setSaveNote(`Saved ${saved.file}`);
      setDetails(await api.details(name));
      select(name, saved.file);
    } catch (error) {
      setSaveNote((error as Error).message);
    }
  };

  const buildError: ShownError | undefined =
    current?.error && current.buildFailed ? { title: 'The template failed to build', message: current.error, at: current.errorAt } : undefined;
  const overlay = buildError ?? frameError;
  const pdfStale = !pdf || pdf.key !== printKey;
  // The print's own problems (for these props) once there is one, else the session's; images the view could not load.
  const problems = [...new Set([...(pdf?.problems ?? current?.problems ?? []), ...failedImages.map((src) => `image failed to load in the HTML view: ${src}`)])];

  return (
    <div className="studio" data-template={name ?? ''} data-artifact-version={artifactVersion} data-renders={renders} data-render-ms={renderMs} data-pdf-state={pdfStale ? 'stale' : 'fresh'}>
      <nav className="templates">
        <h1>imprint dev</h1>
        <ul data-testid="template-list">
          {templates.map((t) => (
            <li key={t.name} className={t.name === name ? 'selected' : ''}>
              <a
                href={`?t=${encodeURIComponent(t.name)}`}
                data-template={t.name}
                onClick={(event) => {
                  event.preventDefault();
                  select(t.name);
                }}
              >
                {t.name}
              </a>
              <span className={`dot ${t.error ? 'failed' : t.building ? 'building' : 'ok'}`} title={t.error ? 'failed' : t.building ? 'building' : 'ok'} />
              <div className="file">{t.file}</div>
            </li>
          ))}
        </ul>
      </nav>

      <aside className="editor">
        <label className="field">
          Props
          <select value={propsSource} onChange={(event) => select(name!, event.target.value === PREVIEW_PROPS ? PREVIEW_PROPS : event.target.value)} data-testid="fixture-select">
            <option value={PREVIEW_PROPS}>{PREVIEW_PROPS}</option>
            {details?.fixtures.map((f) => (
              <option key={f.file} value={f.file}>
                {f.file}
              </option>
            ))}
          </select>
        </label>
        {props !== undefined && (
          <PropsEditor key={`${name}|${propsSource}`} schema={details?.schema} schemaNote={details?.schemaNote} value={props} errors={propsErrors} onChange={setProps} validator={validator} />
        )}
        <div className="save-fixture">
          <input placeholder="label, e.g. long-address" value={label} onChange={(event) => setLabel(event.target.value)} aria-label="fixture label" />
          <button type="button" onClick={() => void saveFixture()} disabled={!label || props === undefined}>
            Save as fixture
          </button>
          {saveNote && <div className="note">{saveNote}</div>}
        </div>
      </aside>

      <main className="html-view">
        <div className="toolbar">
          <span>HTML view</span>
          <span data-testid="page-count">{pages} {pages === 1 ? 'page' : 'pages'}</span>
          <select value={zoom} onChange={(event) => setZoom(Number(event.target.value))} aria-label="zoom">
            {[0, 0.5, 0.75, 1, 1.25, 1.5].map((z) => (
              <option key={z} value={z}>
                {z ? `${Math.round(z * 100)}%` : 'fit width'}
              </option>
            ))}
          </select>
          <span className="thumbs">
            {Array.from({ length: pages }, (_, i) => (
              <button
                type="button"
                key={i}
                className="thumb"
                title={`Page ${i + 1}`}
                onClick={() =>
                  frameBox.current
                    ?.querySelector<HTMLIFrameElement>('iframe[data-testid="html-view"]')
                    ?.contentDocument?.querySelectorAll('.pagedjs_page')
                    [i]?.scrollIntoView({ behavior: 'smooth' })
                }
              >
                {i + 1}
              </button>
            ))}
          </span>
        </div>
        <div className="frame-box" ref={frameBox}>
          {name &&
            [...new Set([visibleVersion, artifactVersion])]
              .filter((version) => version > 0)
              .map((version) => (
                <iframe
                  ref={version === artifactVersion ? frame : undefined}
                  key={`${name}@${version}`}
                  title="HTML view"
                  data-version={version}
                  data-testid={version === visibleVersion ? 'html-view' : 'html-view-next'}
                  className={version === visibleVersion ? '' : 'incoming'}
                  src={`/preview/${encodeURIComponent(name)}/?v=${version}`}
                  onLoad={version === artifactVersion ? () => setFrameLoaded((n) => n + 1) : undefined}
                />
              ))}
          {!artifactVersion && <p className="waiting">{current?.error ? '' : 'Building…'}</p>}
          {overlay && <ErrorOverlay error={overlay} />}
          {problems.length > 0 && (
            <div className="problems" role="status" data-testid="problems">
              <strong>Problems</strong> (the document still prints)
              <ul>
                {problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </div>
          )}
        </div>
        {current?.a11y && <A11yPanel state={current.a11y} />}
      </main>

      <section className="pdf-view">
        <div className="toolbar">
          <span>PDF</span>
          <span className={pdfStale ? 'badge stale' : 'badge fresh'} data-testid="pdf-state">
            {pdfStale ? 'stale: printing…' : `up to date · ${pdf?.pages ?? 0} ${pdf?.pages === 1 ? 'page' : 'pages'}`}
          </span>
          {pdf?.url && (
            <a href={pdf.url} download={`${name}.pdf`}>
              Download
            </a>
          )}
        </div>
        {pdf?.error && <pre className="pdf-error">{pdf.error}</pre>}
        {pdf?.data && <PdfView data={pdf.data} zoom={zoom} workerUrl={PDF_WORKER_URL} />}
      </section>
    </div>
  );
}
