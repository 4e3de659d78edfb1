/**
 * The characters XML 1.0 cannot carry (§2.2): C0 controls other than tab, line feed and carriage
 * return, U+FFFE, U+FFFF and lone surrogates. Not even as a character reference, so escaping
 * cannot save them: text that holds one is refused where it comes in (an e-invoice's fields,
 * a PDF's metadata), with the field and the character named, before any XML or XMP is written
 * (issue 41, case 5). One definition for every XML and XMP writer.
 */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Every C0 control and DEL: what no file name or header value may hold, tab and line breaks included. */
const CONTROL = /[\u0000-\u001F\u007F]/;

/** The first match of `pattern` in `text`, as "U+0001 at character 7", or undefined. */
function described(pattern: RegExp, text: string): string | undefined {
  const found = pattern.exec(text);
  if (!found) return undefined;
  return `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at character ${found.index + 1}`;
}

/** The first character of `text` XML 1.0 forbids, as "U+0001 at character 7", or undefined. */
export const forbiddenXmlCharacter = (text: string): string | undefined => described(FORBIDDEN, text);

/** The first control character of `text` (a file-name pattern's, a header value's), named the same way, or undefined. */
export const controlCharacter = (text: string): string | undefined => described(CONTROL, text);
