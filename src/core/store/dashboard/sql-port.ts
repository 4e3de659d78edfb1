/**
 * The two calls the dashboard's SQL runs through (store.ts, sign-in-attempts.ts), written once
 * for both databases with `?` placeholders; the PostgreSQL adapter numbers them. A leaf: each
 * adapter answers it and the dashboard's modules ask it, without importing one another.
 */
export interface SqlPort {
  /** Rows of a query. */
  all<R>(sql: string, params: readonly unknown[]): Promise<R[]>;
  /** A change; answers how many rows it changed. */
  run(sql: string, params: readonly unknown[]): Promise<number>;
}
