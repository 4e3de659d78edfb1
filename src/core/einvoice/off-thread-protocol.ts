/** The messages between off-thread.ts and the e-invoice worker (worker.ts). */
import type { ErrorCode } from '../errors.js';
import type { CalculatedInvoice } from './calculate.js';
import type { EInvoiceProfile, EInvoiceSyntax } from './model.js';

export interface OffThreadRequest {
  id: number;
  /** The model as the template's `einvoice` static returned it: untrusted data. */
  model: unknown;
  profile: EInvoiceProfile;
  syntax: EInvoiceSyntax;
  /** Where the model came from, for the error message ("The einvoice of invoice.tsx"). */
  source: string;
}

export type OffThreadAnswer =
  | { id: number; calculated: CalculatedInvoice; xml: string; error?: undefined }
  | { id: number; error: { code: ErrorCode; message: string; details?: string } };
