/**
 * `@htmldocs/react` for templates written for htmldocs: the same components and props, on
 * Imprint's native CSS paged media instead of Paged.js. The bundler resolves the package name
 * here (core/bundle/htmldocs-compat-plugin.ts), so an htmldocs project renders unmodified and
 * needs no install of its own. docs/htmldocs.md says what maps to what.
 */
export { Document, type DocumentProps } from './document.js';
export { Page, type PageProps } from './page.js';
export { Head, type HeadProps } from './head.js';
export { Spacer, type SpacerProps, type SpacerType } from './spacer.js';
export { Footer, Header, type FooterProps, type HeaderProps } from './footer-header.js';
export { MarginBox, type MarginBoxPosition, type MarginBoxProps, type PageType } from './margin-box.js';
export { useValue, type JSONArray, type JSONInterface, type JSONObject, type JSONPrimitive, type JSONValue } from './use-value.js';
