/** A link that opens a file of the template at a line in the author's editor: the errors' overlay and the accessibility findings use it. */
import type { ReactNode } from 'react';
import type { ErrorLocation } from './protocol.js';

/** `/abs/templates/Invoice.tsx:42:7`: what the link opens, and what "Copy path" copies. */
export const locationText = (at: ErrorLocation) => `${at.file}:${at.line}:${at.column}`;

export function EditorLink({ at, children }: { at: ErrorLocation; children: ReactNode }) {
  return (
    <a href={`vscode://file/${locationText(at)}`} className="open-in-editor" title={`Open ${locationText(at)} in VS Code`}>
      {children}
    </a>
  );
}
