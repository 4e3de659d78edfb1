/**
 * The try-it form's documents to put before and after the render (docs/finishing.md#merging):
 * PDFs picked from disk, sent as the request's base64 parts with their file names, so the
 * preview shows the whole pack with one bookmark per part.
 */
import { useState } from 'react';
import { formatBytes } from '../format.js';

export interface PickedPart {
  /** The PDF, base64, as the API's `{ "pdf": ..., "name": ... }` part. */
  pdf: string;
  name: string;
  bytes: number;
}

export interface PickedParts {
  prepend: PickedPart[];
  append: PickedPart[];
}

export const NO_PARTS: PickedParts = { prepend: [], append: [] };

/** The request's fields: only the lists that have parts. */
export function partFields(parts: PickedParts) {
  const wire = (list: PickedPart[]) => list.map(({ pdf, name }) => ({ pdf, name }));
  return { ...(parts.prepend.length ? { prepend: wire(parts.prepend) } : {}), ...(parts.append.length ? { append: wire(parts.append) } : {}) };
}

function base64Of(bytes: ArrayBuffer): string {
  const view = new Uint8Array(bytes);
  let binary = '';
  // In slices: String.fromCharCode takes its bytes as arguments, and a PDF has millions.
  for (let offset = 0; offset < view.length; offset += 0x8000) binary += String.fromCharCode(...view.subarray(offset, offset + 0x8000));
  return btoa(binary);
}

async function read(file: File): Promise<PickedPart> {
  const bytes = await file.arrayBuffer();
  if (new TextDecoder().decode(bytes.slice(0, 1024)).indexOf('%PDF-') < 0) throw new Error(`${file.name} is not a PDF (it does not start with %PDF-).`);
  return { pdf: base64Of(bytes), name: file.name, bytes: file.size };
}

function PartList({ which, label, parts, onChange }: { which: keyof PickedParts; label: string; parts: PickedParts; onChange: (parts: PickedParts) => void }) {
  const [error, setError] = useState<string>();
  const add = async (files: FileList | null) => {
    setError(undefined);
    try {
      const picked = await Promise.all([...(files ?? [])].map(read));
      onChange({ ...parts, [which]: [...parts[which], ...picked] });
    } catch (reason) {
      setError((reason as Error).message);
    }
  };
  const remove = (index: number) => onChange({ ...parts, [which]: parts[which].filter((_, at) => at !== index) });
  return (
    <div className="merge-list" data-testid={`merge-${which}`}>
      <label>
        {label}
        <input type="file" accept="application/pdf,.pdf" multiple name={which} onChange={(event) => void add(event.target.files).then(() => (event.target.value = ''))} />
      </label>
      {parts[which].length > 0 && (
        <ol>
          {parts[which].map((part, index) => (
            <li key={`${part.name}-${index}`}>
              {part.name} <span className="meta">({formatBytes(part.bytes)})</span>{' '}
              <button type="button" className="secondary" onClick={() => remove(index)} aria-label={`Remove ${part.name}`}>
                Remove
              </button>
            </li>
          ))}
        </ol>
      )}
      {error && <p className="error" role="alert">{error}</p>}
    </div>
  );
}

export function MergePartsInput({ parts, onChange }: { parts: PickedParts; onChange: (parts: PickedParts) => void }) {
  return (
    <fieldset className="merge-parts" data-testid="try-it-merge">
      <legend>Merge PDFs (each gets its own bookmark)</legend>
      <PartList which="prepend" label="Before the document" parts={parts} onChange={onChange} />
      <PartList which="append" label="After the document" parts={parts} onChange={onChange} />
    </fieldset>
  );
}
