/**
 * An e-invoice from a stranger is parsed by validators (libxml2, Saxon on the JDK's parser) that
 * act on a DOCTYPE: an external DTD or entity makes them read local files and the network and can
 * send a file's contents out (XXE), and internal entities can expand without bound. EN 16931's
 * syntaxes (CII, UBL) use no DTD, so a DOCTYPE in an invoice has no legitimate use: it is refused
 * before anything parses the document (issue 41). Only the prolog is read: a DOCTYPE can appear
 * nowhere else.
 */
import { ImprintError } from '../../errors.js';

/** The prolog's parts that may come before a DOCTYPE or the root: a BOM, the XML declaration, whitespace, comments, processing instructions. */
const PROLOG_PART = /^(?:\uFEFF|\s+|<\?[^]*?\?>|<!--[^]*?-->)/;

export function refuseDoctype(xml: string): void {
  let rest = xml;
  for (let part = PROLOG_PART.exec(rest); part; part = PROLOG_PART.exec(rest)) rest = rest.slice(part[0].length);
  if (!rest.startsWith('<!DOCTYPE')) return;
  throw new ImprintError(
    'INVALID_INPUT',
    'This e-invoice declares a DOCTYPE, which EN 16931 invoices (CII and UBL) never use; its DTD or entities could make a validator read local files or the network (XXE), so it is not parsed. ' +
      'Ask the sender for the invoice without the <!DOCTYPE …> declaration, or remove it yourself if you trust the file.',
  );
}
