/**
 * The type of a template's `metadata` static: the PDF's Info fields, or a function of the
 * props that returns them (run in the page with each render's props). A request's own
 * fields (`--title`, the API's `metadata`) win over these, field by field.
 *
 *   Invoice.metadata = (props: InvoiceProps): TemplateMetadata => ({ title: `Invoice ${props.number}`, author: 'Acme Ltd' });
 */
export interface TemplateMetadata {
  title?: string;
  author?: string;
  subject?: string;
  /** A list, or one comma-separated string. */
  keywords?: string[] | string;
  /** A BCP 47 language tag, e.g. "en-GB": the language screen readers read the document in. */
  language?: string;
  /** The application named as Creator; Imprint and its version by default. */
  creator?: string;
}

export type TemplateMetadataStatic<Props> = TemplateMetadata | ((props: Props) => TemplateMetadata);
