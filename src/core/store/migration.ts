/** A schema step of either store: run once, in order; a released step is never edited or reordered, only appended to. */
export interface Migration {
  readonly description: string;
  readonly sql: string;
}
