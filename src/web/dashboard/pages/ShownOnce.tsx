/** A secret shown once (a new key, a new webhook secret), with a copy button. */
import { useState } from 'react';

export function ShownOnce({ title, value, note, onDone }: { title: string; value: string; note: string; onDone(): void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(value);
    setCopied(true);
  };
  return (
    <section className="card shown-once" role="status" aria-label={title}>
      <h2>{title}</h2>
      <p>{note}</p>
      <div className="secret-row">
        <input readOnly value={value} aria-label={`${title}, shown once`} data-testid="shown-once" onFocus={(event) => event.target.select()} />
        <button type="button" onClick={() => void copy().catch(() => setCopied(false))}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
