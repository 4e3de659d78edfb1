/** The Document's margin, which a Page without its own falls back to (as in htmldocs). */
import { createContext, type CSSProperties } from 'react';

export const DocumentSettings = createContext<{ margin?: CSSProperties['margin'] }>({});
