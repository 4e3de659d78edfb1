/** The dashboard's entry, bundled by scripts/build-dashboard.js into a fingerprinted file the service serves. */
import { createRoot } from 'react-dom/client';
import { GlobalWorkerOptions } from 'pdfjs-dist';
import { App } from './App.js';
import './dashboard.css';

// pdf.js draws the try-it PDF; its worker is a fingerprinted file too, named by the page.
GlobalWorkerOptions.workerSrc = document.querySelector<HTMLMetaElement>('meta[name="imprint-pdf-worker"]')!.content;

createRoot(document.getElementById('app')!).render(<App />);
