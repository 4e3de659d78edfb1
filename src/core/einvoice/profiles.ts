/**
 * What each profile writes and how a Factur-X PDF names it: the specification identifier
 * (BT-24), the conformance level the XMP spells, the attachment's name and its
 * AFRelationship (Factur-X 1.07 / ZUGFeRD 2.3, section "PDF/A-3 embedding").
 */
import { ImprintError } from '../errors.js';
import { EINVOICE_PROFILES, EINVOICE_SYNTAXES, type EInvoiceProfile, type EInvoiceSyntax } from './model.js';

export interface ProfileSpec {
  /** BT-24 in CII: the guideline the document follows. */
  guideline: string;
  /** The XMP's fx:ConformanceLevel, as Factur-X spells it. */
  conformanceLevel: string;
  /** The embedded file's name. */
  fileName: string;
  /** The file spec's /AFRelationship: Data for profiles that are not a full invoice, Alternative for the others. */
  relationship: 'Data' | 'Alternative';
  /** Whether the XML carries invoice lines (MINIMUM and BASIC WL carry only the header). */
  lines: boolean;
}

export const XRECHNUNG_GUIDELINE = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';
/** Peppol BIS Billing 3.0: the UBL customization (BT-24) and process (BT-23) identifiers. */
export const PEPPOL_CUSTOMIZATION = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
export const PEPPOL_PROFILE = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

export const PROFILES: Record<EInvoiceProfile, ProfileSpec> = {
  minimum: { guideline: 'urn:factur-x.eu:1p0:minimum', conformanceLevel: 'MINIMUM', fileName: 'factur-x.xml', relationship: 'Data', lines: false },
  'basic-wl': { guideline: 'urn:factur-x.eu:1p0:basicwl', conformanceLevel: 'BASIC WL', fileName: 'factur-x.xml', relationship: 'Data', lines: false },
  basic: { guideline: 'urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic', conformanceLevel: 'BASIC', fileName: 'factur-x.xml', relationship: 'Alternative', lines: true },
  en16931: { guideline: 'urn:cen.eu:en16931:2017', conformanceLevel: 'EN 16931', fileName: 'factur-x.xml', relationship: 'Alternative', lines: true },
  extended: { guideline: 'urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended', conformanceLevel: 'EXTENDED', fileName: 'factur-x.xml', relationship: 'Alternative', lines: true },
  xrechnung: { guideline: XRECHNUNG_GUIDELINE, conformanceLevel: 'XRECHNUNG', fileName: 'xrechnung.xml', relationship: 'Alternative', lines: true },
};

/** The flag's values: `zugferd` is the German name of the same format. */
export const EINVOICE_FORMATS = ['factur-x', 'zugferd'] as const;
export type EInvoiceFormat = (typeof EINVOICE_FORMATS)[number];

export function parseEInvoiceFormat(value: unknown): EInvoiceFormat {
  if (typeof value === 'string' && (EINVOICE_FORMATS as readonly string[]).includes(value)) return value as EInvoiceFormat;
  throw new ImprintError('USAGE', `Invalid einvoice ${JSON.stringify(value)}: use factur-x (or its German name, zugferd).`);
}

export function parseEInvoiceProfile(value: unknown): EInvoiceProfile {
  if (typeof value === 'string' && (EINVOICE_PROFILES as readonly string[]).includes(value)) return value as EInvoiceProfile;
  throw new ImprintError('USAGE', `Invalid einvoice profile ${JSON.stringify(value)}: use one of ${EINVOICE_PROFILES.join(', ')} (default en16931).`);
}

export function parseEInvoiceSyntax(value: unknown): EInvoiceSyntax {
  if (typeof value === 'string' && (EINVOICE_SYNTAXES as readonly string[]).includes(value)) return value as EInvoiceSyntax;
  throw new ImprintError('USAGE', `Invalid syntax ${JSON.stringify(value)}: use cii (UN/CEFACT Cross Industry Invoice, as Factur-X embeds it) or ubl (OASIS UBL 2.1, as Peppol sends it).`);
}
