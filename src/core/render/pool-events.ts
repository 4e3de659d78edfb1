/** What the pool tells its owner's log: launches, restarts, crashes, page turnover, cleanup failures. */
export type PoolEvent =
  | { type: 'launch'; generation: number; ms: number }
  | { type: 'retire'; generation: number; renders: number; reason: 'restart-after' | 'idle' | 'close' }
  | { type: 'crash'; generation: number }
  /** `ahead`: opened before a render needed it (PoolSettings.openAhead). */
  | { type: 'page-open'; generation: number; isolationKey: string; artifactKey: string; ms: number; ahead?: boolean }
  | { type: 'page-close'; generation: number; reason: 'recycle' | 'dirty' | 'failed' | 'evicted' }
  /** A render got its page; `pid` is the browser's process, when the pool launched it. */
  | { type: 'render-start'; generation: number; warm: boolean; pid?: number }
  | { type: 'cleanup-failed'; generation: number; what: string; error: unknown };

export type PoolLog = (event: PoolEvent) => void;
