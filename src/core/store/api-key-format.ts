/** What every API key starts with, in every store: a key without it is not one of ours, and is refused unhashed. */
export const KEY_PREFIX = 'imp_';
