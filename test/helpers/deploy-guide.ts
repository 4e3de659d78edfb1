/**
 * What docs/deploy.md's walk-through says a reader may change: its ports and, as root, its
 * cluster folder. test/e2e/deploy-guide.test.ts replaces exactly these, and
 * test/unit/deploy-doc.test.ts checks the guide names each of them.
 */
export const GUIDE_PORTS = [5433, 4568, 8081, 8082, 8080] as const;
export const GUIDE_CLUSTER_DIR = '/var/lib/postgresql/imprint-walkthrough';
/** The marker on the line before each block the test runs. */
export const WALKTHROUGH_MARKER = 'walkthrough';
