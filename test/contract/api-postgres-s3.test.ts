/**
 * The HTTP contract (api.test.ts, every test of it) against a service on the store a
 * multi-node deployment uses: PostgreSQL (a throwaway cluster) and S3 (an s3rver bucket),
 * instead of the data folder's SQLite and files. Same rules, same answers.
 */
process.env.IMPRINT_TEST_BACKEND = 'postgres-s3';
await import('./api.test.js');
export {};
