/** Sign in with an API key: the key goes to the service once and is exchanged for a session cookie; the page keeps nothing of it. */
import { useState, type FormEvent } from 'react';
import { send, type SessionInfo } from '../api.js';

export function SignIn({ onSignedIn, forLogin }: { onSignedIn(session: SessionInfo): void; forLogin: boolean }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const session = await send<SessionInfo>('POST', '/dashboard/api/session', { key });
      setKey('');
      onSignedIn(session);
    } catch (reason) {
      setError((reason as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="centered">
      <form className="card sign-in" onSubmit={(event) => void submit(event)}>
        <h1>Imprint</h1>
        <p>{forLogin ? 'Sign in to approve the command-line login.' : "Sign in with one of your team's API keys to see its templates, usage, jobs and keys."}</p>
        <label htmlFor="api-key">API key</label>
        <input id="api-key" name="api-key" type="password" autoComplete="off" spellCheck={false} placeholder="imp_…" value={key} onChange={(event) => setKey(event.target.value)} required autoFocus />
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy || !key.trim()}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="hint">No key? Whoever runs this service makes one with <code>imprint key create --team &lt;team&gt;</code>.</p>
      </form>
    </main>
  );
}
