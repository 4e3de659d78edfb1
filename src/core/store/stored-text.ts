/**
 * PostgreSQL's text holds no NUL byte: a query that compares a column with a string holding
 * one fails ("invalid byte sequence for encoding UTF8") instead of matching nothing. No id the
 * store keeps can hold one, so a lookup by such a string is a lookup of an unknown id, and is
 * answered as one (404) before it reaches the database, on both stores alike.
 */
export const couldBeStoredId = (value: string): boolean => !value.includes('\u0000');

/**
 * Text a row's outcome carries (a failure's message, a file name) as both databases can store
 * it: PostgreSQL's text cannot hold a NUL byte (a template's own error, a quoted prop can
 * carry one), so each becomes U+FFFD, on SQLite too, so the two stores show the same.
 */
export function storableText<T extends string | null>(text: T): T {
  return (text === null ? text : text.replace(/\u0000/g, '\uFFFD')) as T;
}

/**
 * A value as JSON text both databases can read back as JSON: PostgreSQL's json and jsonb refuse
 * the escape \u0000 (a job's spec is read as jsonb for its webhook and test flags), so a NUL in
 * any string of it becomes U+FFFD first, as storableText does for plain text.
 */
export function storableJson(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) => (typeof field === 'string' ? storableText(field) : field));
}
