/**
 * How many documents a render may put before and after its own (`prepend`, `append`), and how
 * long one fetched by URL may take. The pages and bytes of the merged result are the render
 * limits' (render-limits.ts): a part is refused as soon as the sum passes them, before it is
 * copied, and the merged PDF is checked again like any other.
 */
export const MAX_MERGE_PARTS = 20;

/** One part fetched by URL: connect, answer and body within this. */
export const MERGE_FETCH_TIMEOUT_MS = 30_000;

/** The bytes read of a part fetched by URL when no render limit applies (the CLI's embedded mode). */
export const MAX_FETCHED_PART_BYTES = 200 * 1024 * 1024;
