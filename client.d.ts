/**
 * `imprint/client`: the types of what a template may import besides code, as Imprint's bundler
 * builds it (src/core/bundle/bundle-template.ts ASSET_LOADERS, css-pipeline-plugin.ts,
 * text-imports-plugin.ts). A template project names it once, as Vite's projects name
 * `vite/client`: `"types": ["imprint/client"]` in tsconfig.json (what `imprint init` writes), or
 * `/// <reference types="imprint/client" />` in a .d.ts file of the project.
 */

// CSS: imported for its rules (`import './invoice.css'`), or a CSS module's class names.
declare module '*.module.css' {
  const classes: { readonly [name: string]: string };
  export default classes;
}
declare module '*.css' {}

// Images and fonts are inlined: the import is a data: URL.
declare module '*.png' {
  const url: string;
  export default url;
}
declare module '*.jpg' {
  const url: string;
  export default url;
}
declare module '*.jpeg' {
  const url: string;
  export default url;
}
declare module '*.gif' {
  const url: string;
  export default url;
}
declare module '*.webp' {
  const url: string;
  export default url;
}
declare module '*.avif' {
  const url: string;
  export default url;
}
declare module '*.woff' {
  const url: string;
  export default url;
}
declare module '*.woff2' {
  const url: string;
  export default url;
}
declare module '*.ttf' {
  const url: string;
  export default url;
}
declare module '*.otf' {
  const url: string;
  export default url;
}

// Text files imported from code give their text (an .svg too: inline it, or put it in static/ for a URL).
declare module '*.svg' {
  const text: string;
  export default text;
}
declare module '*.md' {
  const text: string;
  export default text;
}
declare module '*.markdown' {
  const text: string;
  export default text;
}
declare module '*.txt' {
  const text: string;
  export default text;
}
declare module '*.html' {
  const text: string;
  export default text;
}
declare module '*.htm' {
  const text: string;
  export default text;
}
