/** An error over the HTML view: its message, a link that opens the file at the line, and the path to copy. */
import type { ErrorLocation } from './api.js';
import { EditorLink, locationText } from './editor-link.js';

export interface ShownError {
  title: string;
  message: string;
  at?: ErrorLocation;
}

export function ErrorOverlay({ error }: { error: ShownError }) {
  const where = error.at ? locationText(error.at) : undefined;
  return (
    <div className="overlay" role="alert" data-testid="overlay">
      <strong>{error.title}</strong>
      <pre className="overlay-message">{error.message}</pre>
      {error.at && where && (
        <div className="overlay-where">
          <EditorLink at={error.at}>Open in VS Code</EditorLink> <code className="overlay-path">{where}</code>{' '}
          <button type="button" onClick={() => void navigator.clipboard?.writeText(where)}>
            Copy path
          </button>
        </div>
      )}
    </div>
  );
}
