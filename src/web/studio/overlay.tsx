/** An error over the HTML view: its message, a link that opens the file at the line, and the path to copy. */
import type { ErrorLocation } from './api.js';

export interface ShownError {
  title: string;
  message: string;
  at?: ErrorLocation;
}

export function ErrorOverlay({ error }: { error: ShownError }) {
  const where = error.at ? `${error.at.file}:${error.at.line}:${error.at.column}` : undefined;
  return (
    <div className="overlay" role="alert" data-testid="overlay">
      <strong>{error.title}</strong>
      <pre className="overlay-message">{error.message}</pre>
      {where && (
        <div className="overlay-where">
          <a href={`vscode://file/${where}`} className="open-in-editor">
            Open in VS Code
          </a>{' '}
          <code className="overlay-path">{where}</code>{' '}
          <button type="button" onClick={() => void navigator.clipboard?.writeText(where)}>
            Copy path
          </button>
        </div>
      )}
    </div>
  );
}
