/**
 * The printed PDF, drawn page by page by pdf.js: the same view in every browser (a headless one
 * has no PDF viewer), with its page count and a thumbnail strip to jump between pages. The page
 * that shows it names pdf.js's worker (`workerUrl`): each app serves it under its own path.
 */
import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'react';

/** CSS pixels per PDF point at 100 %. */
const PX_PER_PT = 96 / 72;

async function drawPages(pdf: PDFDocumentProxy, into: HTMLElement, scale: number, className: string): Promise<void> {
  const canvases: HTMLCanvasElement[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const viewport = page.getViewport({ scale: scale * PX_PER_PT * devicePixelRatio });
    const canvas = document.createElement('canvas');
    canvas.className = className;
    canvas.width = Math.ceil(viewport.width);
    canvas.height = Math.ceil(viewport.height);
    canvas.style.width = `${Math.ceil(viewport.width / devicePixelRatio)}px`;
    canvas.dataset.page = String(number);
    await page.render({ canvas, viewport }).promise;
    canvases.push(canvas);
  }
  into.replaceChildren(...canvases);
}

/** `password`: the user password of an encrypted PDF, to open it as its reader would. */
export function PdfView({ data, zoom, workerUrl, password }: { data: ArrayBuffer; zoom: number; workerUrl: string; password?: string }) {
  const pages = useRef<HTMLDivElement>(null);
  const thumbs = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string>();

  useEffect(() => {
    let cancelled = false;
    // pdf.js reads its worker's URL from this global when a document is opened: one per page, so set it each time.
    GlobalWorkerOptions.workerSrc = workerUrl;
    // pdf.js 6 has no eval left (its isEvalSupported option is gone): it runs under the dashboard's CSP as it is.
    const task = getDocument({ data: new Uint8Array(data.slice(0)), password });
    void task.promise
      .then(async (pdf) => {
        if (cancelled) return;
        const width = pages.current!.clientWidth - 40;
        const first = (await pdf.getPage(1)).getViewport({ scale: PX_PER_PT });
        await drawPages(pdf, pages.current!, zoom || Math.min(1.5, width / first.width), 'pdf-page');
        if (!cancelled) await drawPages(pdf, thumbs.current!, 70 / first.width, 'pdf-thumb');
        setError(undefined);
      })
      .catch((reason: Error) => !cancelled && setError(reason.message));
    return () => {
      cancelled = true;
      void task.destroy();
    };
  }, [data, zoom, workerUrl, password]);

  return (
    <div className="pdf-body">
      <div
        className="pdf-thumbs"
        ref={thumbs}
        onClick={(event) => {
          const number = (event.target as HTMLElement).dataset.page;
          if (number) pages.current?.querySelector(`[data-page="${number}"]`)?.scrollIntoView({ behavior: 'smooth' });
        }}
      />
      <div className="pdf-pages" ref={pages} data-testid="pdf-view" />
      {error && <pre className="pdf-error">The PDF could not be drawn: {error}</pre>}
    </div>
  );
}
