/**
 * The plain pages beside the studio: a list of the templates (/list), and one page per template showing its PDF
 * (the browser's own PDF viewer), its errors with their source location, its problems and a
 * download button. A small inline script follows the server's events and swaps the PDF for
 * the new version after each save, without reloading the page.
 */
import type { TemplateState } from './template-state.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside a <script>: `<` escaped so no string in it can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const STYLE = `
  body { margin: 0; font: 14px/1.45 system-ui, sans-serif; color: #1f2933; background: #eef1f4; }
  header { display: flex; gap: 16px; align-items: center; padding: 10px 18px; background: #23395d; color: #fff; }
  header a { color: #fff; }
  header h1 { font-size: 16px; margin: 0; flex: 1; }
  .button { background: #fff; color: #23395d; border-radius: 4px; padding: 5px 12px; text-decoration: none; font-weight: 600; }
  .button[aria-disabled="true"] { opacity: .4; pointer-events: none; }
  main { padding: 14px 18px; }
  pre.error { background: #fdecec; color: #7a1c1c; border-left: 4px solid #c53030; padding: 10px 14px; white-space: pre-wrap; margin: 0 0 12px; }
  ul.problems { background: #fff8e6; border-left: 4px solid #d69e2e; margin: 0 0 12px; padding: 8px 14px 8px 32px; }
  iframe { width: 100%; height: calc(100vh - 120px); border: 0; background: #fff; box-shadow: 0 1px 4px rgba(0,0,0,.15); }
  ol.templates { background: #fff; padding: 12px 12px 12px 40px; max-width: 720px; }
  ol.templates li { padding: 4px 0; }
  .status { color: #66788a; margin-left: 8px; }
`;

function layout(title: string, body: string, script: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · imprint dev</title><style>${STYLE}</style></head><body>${body}<script>${script}</script></body></html>`;
}

/** The status line both pages show for a template. */
const STATUS_SCRIPT = `
  function statusText(s) {
    if (s.building && !s.version) return 'building…';
    const base = s.ok ? 'rendered with ' + s.props + ' in ' + (s.ms / 1000).toFixed(1) + ' s' : 'failed';
    const problems = s.problems.length ? ' · ' + s.problems.length + (s.problems.length === 1 ? ' problem' : ' problems') : '';
    return (s.building ? 'rebuilding… ' : '') + base + problems;
  }
`;

export function indexPage(templates: TemplateState[]): string {
  const items = templates
    .map((t) => `<li data-name="${escapeHtml(t.name)}"><a href="/t/${encodeURIComponent(t.name)}">${escapeHtml(t.file)}</a><span class="status"></span></li>`)
    .join('');
  const body = `<header><h1>imprint dev · ${templates.length} ${templates.length === 1 ? 'template' : 'templates'}</h1></header><main><ol class="templates">${items}</ol></main>`;
  const script = `${STATUS_SCRIPT}
  const states = ${scriptJson(templates)};
  function show(s) {
    const item = document.querySelector('li[data-name="' + CSS.escape(s.name) + '"] .status');
    if (item) item.textContent = statusText(s);
  }
  states.forEach(show);
  const events = new EventSource('/events');
  events.addEventListener('list', (event) => JSON.parse(event.data).forEach(show));
  events.onmessage = (event) => show(JSON.parse(event.data));`;
  return layout('Templates', body, script);
}

export function previewPage(template: TemplateState): string {
  const name = encodeURIComponent(template.name);
  const body = `<header><a href="/list">← templates</a> <a href="/?t=${name}">studio</a><h1>${escapeHtml(template.file)} <span class="status" id="status"></span></h1>
  <a class="button" id="download" href="/t/${name}/pdf?download=1" download="${escapeHtml(template.name)}.pdf" aria-disabled="true">Download PDF</a></header>
  <main id="preview" data-version="0" data-ok="false">
    <pre class="error" id="error" hidden></pre>
    <ul class="problems" id="problems" hidden></ul>
    <iframe id="pdf" title="${escapeHtml(template.name)} PDF" hidden></iframe>
  </main>`;
  const script = `${STATUS_SCRIPT}
  const NAME = ${scriptJson(template.name)};
  const main = document.getElementById('preview');
  function show(s) {
    if (s.name !== NAME) return;
    document.getElementById('status').textContent = statusText(s);
    const error = document.getElementById('error');
    error.hidden = !s.error;
    error.textContent = s.error || '';
    const problems = document.getElementById('problems');
    problems.hidden = s.problems.length === 0;
    problems.replaceChildren(...s.problems.map((text) => Object.assign(document.createElement('li'), { textContent: text })));
    // The last good PDF stays in view under an error, until the next good one replaces it.
    if (s.pdfVersion && String(s.pdfVersion) !== main.dataset.pdfVersion) {
      const frame = document.getElementById('pdf');
      frame.src = '/t/' + encodeURIComponent(NAME) + '/pdf?v=' + s.pdfVersion;
      frame.hidden = false;
      main.dataset.pdfVersion = String(s.pdfVersion);
      document.getElementById('download').setAttribute('aria-disabled', 'false');
    }
    main.dataset.version = String(s.version);
    main.dataset.ok = String(s.ok);
  }
  show(${scriptJson(template)});
  // The stream starts with every state (a build that finished while this page loaded), then each change.
  const events = new EventSource('/events');
  events.addEventListener('list', (event) => JSON.parse(event.data).forEach(show));
  events.onmessage = (event) => show(JSON.parse(event.data));`;
  return layout(template.name, body, script);
}
