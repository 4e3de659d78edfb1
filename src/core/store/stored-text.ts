/**
 * PostgreSQL's text holds no NUL byte: a query that compares a column with a string holding
 * one fails ("invalid byte sequence for encoding UTF8") instead of matching nothing. No id the
 * store keeps can hold one, so a lookup by such a string is a lookup of an unknown id, and is
 * answered as one (404) before it reaches the database, on both stores alike.
 */
export const couldBeStoredId = (value: string): boolean => !value.includes('\u0000');
