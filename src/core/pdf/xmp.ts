/**
 * The XMP metadata packet of a PDF/A or PDF/UA file: the PDF/A and PDF/UA identifications, the
 * Info dictionary's fields restated in their XMP properties (PDF/A requires the two to agree),
 * and for a Factur-X / ZUGFeRD file the fx: properties with their PDF/A extension schema, as
 * the Factur-X 1.07 specification spells them. One packet carries every identification asked.
 */
export interface XmpFields {
  /** The PDF/A part, when the file is a PDF/A. */
  part?: 2 | 3;
  /** A PDF/UA-1 file (pdfuaid:part 1). */
  pdfua?: boolean;
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  creator?: string;
  producer?: string;
  created: Date;
  modified: Date;
  /** The document ID (xmpMM:DocumentID), the same as the trailer's /ID. */
  documentId: string;
  facturX?: { fileName: string; conformanceLevel: string };
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const xmpDate = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

const FX_NAMESPACE = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

const FX_PROPERTIES: [string, string][] = [
  ['DocumentFileName', 'The name of the embedded XML document'],
  ['DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER'],
  ['Version', 'The actual version of the standard applying to the embedded XML document'],
  ['ConformanceLevel', 'The conformance level of the embedded XML document'],
];

/** The fx: schema's description, one item of the packet's PDF/A extension schemas. */
function facturXExtension(): string {
  const properties = FX_PROPERTIES.map(
    ([name, description]) => `            <rdf:li rdf:parseType="Resource">
              <pdfaProperty:name>${name}</pdfaProperty:name>
              <pdfaProperty:valueType>Text</pdfaProperty:valueType>
              <pdfaProperty:category>external</pdfaProperty:category>
              <pdfaProperty:description>${description}</pdfaProperty:description>
            </rdf:li>`,
  ).join('\n');
  return `          <rdf:li rdf:parseType="Resource">
            <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
            <pdfaSchema:namespaceURI>${FX_NAMESPACE}</pdfaSchema:namespaceURI>
            <pdfaSchema:prefix>fx</pdfaSchema:prefix>
            <pdfaSchema:property>
              <rdf:Seq>
${properties}
              </rdf:Seq>
            </pdfaSchema:property>
          </rdf:li>
`;
}

function facturXProperties(fileName: string, conformanceLevel: string): string {
  return `    <rdf:Description rdf:about="" xmlns:fx="${FX_NAMESPACE}">
      <fx:DocumentType>INVOICE</fx:DocumentType>
      <fx:DocumentFileName>${escapeXml(fileName)}</fx:DocumentFileName>
      <fx:Version>1.0</fx:Version>
      <fx:ConformanceLevel>${escapeXml(conformanceLevel)}</fx:ConformanceLevel>
    </rdf:Description>
`;
}

/**
 * pdfuaid is no schema PDF/A predefines: a PDF/A file that carries it describes it, as ISO
 * 14289-1 and the PDF Association's examples do.
 */
const PDFUA_EXTENSION = `          <rdf:li rdf:parseType="Resource">
            <pdfaSchema:schema>PDF/UA Universal Accessibility Schema</pdfaSchema:schema>
            <pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/</pdfaSchema:namespaceURI>
            <pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>
            <pdfaSchema:property>
              <rdf:Seq>
                <rdf:li rdf:parseType="Resource">
                  <pdfaProperty:name>part</pdfaProperty:name>
                  <pdfaProperty:valueType>Integer</pdfaProperty:valueType>
                  <pdfaProperty:category>internal</pdfaProperty:category>
                  <pdfaProperty:description>Indicates, which part of ISO 14289 standard is followed</pdfaProperty:description>
                </rdf:li>
              </rdf:Seq>
            </pdfaSchema:property>
          </rdf:li>
`;

/** PDF/A wants every schema it does not predefine described, all in one pdfaExtension:schemas bag. */
function extensionSchemas(fields: XmpFields): string {
  if (fields.part === undefined) return '';
  const items = (fields.pdfua ? PDFUA_EXTENSION : '') + (fields.facturX ? facturXExtension() : '');
  if (!items) return '';
  return `    <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
      <pdfaExtension:schemas>
        <rdf:Bag>
${items}        </rdf:Bag>
      </pdfaExtension:schemas>
    </rdf:Description>
`;
}

function identifications(fields: XmpFields): string {
  const pdfa =
    fields.part === undefined
      ? ''
      : `    <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
      <pdfaid:part>${fields.part}</pdfaid:part>
      <pdfaid:conformance>B</pdfaid:conformance>
    </rdf:Description>
`;
  const pdfua = fields.pdfua
    ? `    <rdf:Description rdf:about="" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/">
      <pdfuaid:part>1</pdfuaid:part>
    </rdf:Description>
`
    : '';
  return pdfa + pdfua;
}

export function buildXmp(fields: XmpFields): string {
  const optional = (line: string | false | undefined) => (line ? `${line}\n` : '');
  const dc = [
    '      <dc:format>application/pdf</dc:format>',
    fields.title !== undefined && `      <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(fields.title)}</rdf:li></rdf:Alt></dc:title>`,
    fields.author !== undefined && `      <dc:creator><rdf:Seq><rdf:li>${escapeXml(fields.author)}</rdf:li></rdf:Seq></dc:creator>`,
    fields.subject !== undefined && `      <dc:description><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(fields.subject)}</rdf:li></rdf:Alt></dc:description>`,
  ]
    .map(optional)
    .join('');
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
  <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
${identifications(fields)}    <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
${dc}    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
${optional(fields.producer !== undefined && `      <pdf:Producer>${escapeXml(fields.producer)}</pdf:Producer>`)}${optional(fields.keywords !== undefined && `      <pdf:Keywords>${escapeXml(fields.keywords)}</pdf:Keywords>`)}    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
${optional(fields.creator !== undefined && `      <xmp:CreatorTool>${escapeXml(fields.creator)}</xmp:CreatorTool>`)}      <xmp:CreateDate>${xmpDate(fields.created)}</xmp:CreateDate>
      <xmp:ModifyDate>${xmpDate(fields.modified)}</xmp:ModifyDate>
      <xmp:MetadataDate>${xmpDate(fields.modified)}</xmp:MetadataDate>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/">
      <xmpMM:DocumentID>uuid:${fields.documentId}</xmpMM:DocumentID>
    </rdf:Description>
${extensionSchemas(fields)}${fields.facturX ? facturXProperties(fields.facturX.fileName, fields.facturX.conformanceLevel) : ''}  </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}
