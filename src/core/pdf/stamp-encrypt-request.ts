/**
 * A request's `stamp` and `encrypt` fields, read for every face by one call from
 * parseRenderOptions (and the CLI's flags, cli/protect-options.ts): each by its own parser,
 * then the rule between them and the archival options (PDF/A forbids encryption).
 */
import { parseEncrypt, refuseEncryptWithPdfa, type EncryptOptions } from './encrypt-options.js';
import { parseStamp, type StampOptions } from './stamp-options.js';

export interface StampEncryptOptions {
  stamp?: StampOptions;
  encrypt?: EncryptOptions;
}

/** `archival`: the request's pdfa and einvoice, as already read. */
export function parseStampEncrypt(input: { stamp?: unknown; encrypt?: unknown }, archival: { pdfa?: string; einvoice?: unknown }): StampEncryptOptions {
  const options: StampEncryptOptions = {};
  if (input.stamp !== undefined) options.stamp = parseStamp(input.stamp);
  if (input.encrypt !== undefined) options.encrypt = parseEncrypt(input.encrypt);
  refuseEncryptWithPdfa({ ...archival, encrypt: options.encrypt });
  return options;
}
