/**
 * A web font used only in a page margin is never loaded by the browser on its own: fonts
 * load when laid-out text needs them, and margin boxes are laid out only when printing,
 * after the page runtime stopped waiting. Chromium then prints the margin text invisible
 * (font-display: block) or in a fallback. So the faces a Header or Footer is drawn in are
 * asked for during the commit; the page runtime's wait for `document.fonts.ready` covers them.
 */
import { useLayoutEffect } from 'react';
import type { MarginBoxStyle } from './page-css.js';

function fontShorthand(style: MarginBoxStyle): string {
  // Margin boxes inherit from the page context, which inherits from the root element.
  const root = getComputedStyle(document.documentElement);
  const fontStyle = style.fontStyle ?? root.fontStyle;
  const fontWeight = style.fontWeight ?? root.fontWeight;
  const family = style.fontFamily ?? root.fontFamily;
  return `${fontStyle} ${fontWeight} 16px ${family}`;
}

export function useMarginFonts(style: MarginBoxStyle, text: string): void {
  const font = JSON.stringify(style);
  useLayoutEffect(() => {
    if (!text.trim()) return;
    document.fonts.load(fontShorthand(style), text).catch((error: unknown) => {
      // Reported, not thrown: the document still prints, and `imprint check` fails on it.
      console.error(`imprint: a font of a page header or footer could not be loaded: ${(error as Error).message ?? String(error)}`);
    });
    // Keyed by the style's content: the object itself is new on every render.
  }, [font, text]);
}
