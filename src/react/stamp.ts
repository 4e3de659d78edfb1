/**
 * The type of a template's `stamp` static: a stamp drawn over the printed pages (a text such as
 * "COPY", an SVG's markup, or a PDF as base64; docs/finishing.md), or a function of the props
 * that returns one, or nothing for no stamp (run in the page with each render's props). A
 * request's own stamp (`--stamp`, the API's `stamp`) replaces it.
 *
 *   Invoice.stamp = (props: InvoiceProps): TemplateStamp | undefined => (props.duplicate ? { text: 'COPY', position: 'top-right' } : undefined);
 */
export type StampPositionName = 'center' | 'top-left' | 'top' | 'top-right' | 'left' | 'right' | 'bottom-left' | 'bottom' | 'bottom-right';

export type TemplateStamp =
  | string
  | ({ text: string } | { svg: string } | { pdf: string }) & {
      /** all (default), first, last, or pages and ranges: "1-3", "2,4", "3-". */
      pages?: string;
      /** center by default. */
      position?: StampPositionName;
      /** Above 0, at most 1; 0.5 by default. */
      opacity?: number;
      /** Degrees counter-clockwise, or "diagonal" (each page's corner to corner); 0 by default. */
      rotate?: number | 'diagonal';
    };

export type TemplateStampStatic<Props> = TemplateStamp | undefined | ((props: Props) => TemplateStamp | undefined | null);
