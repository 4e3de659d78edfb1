/**
 * `imprint/react`: page components for templates. They run in the page that prints the
 * document and emit native CSS paged media; see docs/components.md for one example each.
 */
export { Document, type DocumentProps } from './document.js';
export { Header, Footer, type MarginBoxesProps } from './header-footer.js';
export { RunningHeader, RunningFooter, type RunningBandProps } from './running.js';
export { PageNumber, TotalPages, type CounterProps, type CounterStyle } from './counters.js';
export { SectionNumber, SectionPageNumber, SectionPages } from './counters.js';
export { TableOfContents, type TableOfContentsProps, type HeadingLevel } from './table-of-contents.js';
export { PageRef, type PageRefProps } from './page-ref.js';
export { Section, type SectionProps } from './section.js';
export { Page, PageBreak, KeepTogether, Spacer, type SpacerProps } from './flow.js';
export type { Length, Margin, MarginBoxStyle, NamedPageSize, Orientation, PageSelector, PageSize } from './page-css.js';
export type { TemplateMetadata, TemplateMetadataStatic } from './metadata.js';
export { Field, type FieldProps } from './field.js';
