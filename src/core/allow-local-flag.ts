/**
 * The CLI flag that lets a page reach this machine and its network, named in messages by the
 * core (url-access.ts) and by the CLI's thin path (commands/generate-common.ts). A file of its
 * own so that naming it loads none of the address checks.
 */
export const ALLOW_LOCAL_FLAG = '--allow-local';
