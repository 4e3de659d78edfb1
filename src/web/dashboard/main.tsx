/** The dashboard's entry, bundled by scripts/build-web.js into a fingerprinted file the service serves. */
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import './dashboard.css';

createRoot(document.getElementById('app')!).render(<App />);
