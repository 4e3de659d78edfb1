/** Lets components that need the Document's page flow (the running bands) find it. */
import { createContext, useContext } from 'react';

export const DocumentContext = createContext(false);

export function useInsideDocument(component: string): void {
  if (!useContext(DocumentContext)) {
    throw new Error(`<${component}> must be placed inside <Document>: the Document reserves its room on every page.`);
  }
}
