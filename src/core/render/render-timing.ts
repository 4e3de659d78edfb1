/**
 * Where a render's time goes (waiting for a slot, loading and rendering the page, printing),
 * for whoever asked for the render to be timed: the service's metrics. The marks travel in
 * the render's async context, so the pool and the print record them without a parameter
 * threaded through every call between them; a render nobody times records nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** queued: the pool took the job; admitted: it got a render slot; print-*: around Chromium's print. */
export type RenderMark = 'queued' | 'admitted' | 'print-start' | 'print-end';

/** performance.now() of each mark reached (the last time it was reached). */
export type RenderMarks = Partial<Record<RenderMark, number>>;

const current = new AsyncLocalStorage<RenderMarks>();

/** Runs `work` with `marks` filled in as the render reaches each point. */
export function timeRender<T>(marks: RenderMarks, work: () => Promise<T>): Promise<T> {
  return current.run(marks, work);
}

export function markRender(mark: RenderMark): void {
  const marks = current.getStore();
  if (marks) marks[mark] = performance.now();
}
