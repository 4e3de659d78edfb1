/** The studio's entry: bundled by esbuild into the page `imprint dev` serves at /. */
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import './studio.css';

createRoot(document.getElementById('studio')!).render(<App />);
