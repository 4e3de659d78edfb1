/**
 * A checked invoice as the attachment of a Factur-X / ZUGFeRD / XRechnung PDF: the CII XML
 * under the name the profile calls for, with its AFRelationship and the fx: conformance level
 * (Factur-X 1.07 / ZUGFeRD 2.3). The XML is the same `imprint einvoice --syntax cii` writes.
 */
import type { PdfaAttachment } from '../pdf/pdfa.js';
import type { EInvoiceProfile } from './model.js';
import { PROFILES } from './profiles.js';

/** `xml`: the invoice's CII (written with the check, off-thread.ts). */
export function facturXAttachment(xml: string, profile: EInvoiceProfile): PdfaAttachment {
  const spec = PROFILES[profile];
  return {
    fileName: spec.fileName,
    bytes: Buffer.from(xml, 'utf8'),
    mimeType: 'text/xml',
    description: profile === 'xrechnung' ? 'XRechnung invoice (CII)' : `Factur-X / ZUGFeRD invoice, profile ${spec.conformanceLevel}`,
    relationship: spec.relationship,
    facturX: { conformanceLevel: spec.conformanceLevel },
  };
}
