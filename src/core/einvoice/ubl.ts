import type { CalculatedInvoice } from './calculate.js';
import type { EInvoiceProfile } from './model.js';
export function writeUbl(_calculated: CalculatedInvoice, _profile: EInvoiceProfile): string {
  throw new Error('not yet');
}
