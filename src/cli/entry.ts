/**
 * The CLI's entry point. For a command that will render locally, Chromium is started first,
 * so that it boots while the rest of the CLI loads (launch-ahead.ts); then the CLI runs.
 */
import { startBrowserAhead } from './launch-ahead.js';

startBrowserAhead(process.argv.slice(2), process.env);
await import('./main.js');
