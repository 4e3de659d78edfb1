/** Whether progress may animate: stderr is a terminal and this is not CI. Its own file, so the thin path (renderer/client/fast-render.ts) asks without loading chalk. */
import { inCi } from '../../backend/environment.js';

export const interactive = () => Boolean(process.stderr.isTTY) && !inCi();
