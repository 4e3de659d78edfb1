/** The team's API keys: when each was made and last used; make one (shown once, with a copy button), revoke one. */
import { useState } from 'react';
import { send } from '../api.js';
import { formatTime } from '../format.js';
import { signedOutIfGone, useLoad } from '../use-load.js';
import { ShownOnce } from './ShownOnce.js';

interface Key {
  id: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  test: boolean;
  current: boolean;
}

export function KeysPage({ onSessionEnded, testSession }: { onSessionEnded(): void; testSession: boolean }) {
  const { data, error, reload } = useLoad<{ keys: Key[] }>('/dashboard/api/keys');
  const [created, setCreated] = useState<{ id: string; key: string; test: boolean }>();
  const [problem, setProblem] = useState<string>();

  const create = async (test: boolean) => {
    setProblem(undefined);
    try {
      setCreated(await send('POST', '/dashboard/api/keys', { test }));
      reload();
    } catch (reason) {
      signedOutIfGone(reason);
      setProblem((reason as Error).message);
    }
  };

  const revoke = async (key: Key) => {
    const warning = key.current ? ' This is the key you signed in with: you will be signed out.' : '';
    if (!confirm(`Revoke ${key.id}? Everything using it stops working at once.${warning}`)) return;
    try {
      const answer = await send<{ endsThisSession: boolean }>('POST', `/dashboard/api/keys/${encodeURIComponent(key.id)}/revoke`, {});
      if (answer.endsThisSession) onSessionEnded();
      else reload();
    } catch (reason) {
      signedOutIfGone(reason);
      setProblem((reason as Error).message);
    }
  };

  const live = data?.keys.filter((key) => !key.revokedAt) ?? [];
  const revoked = data?.keys.filter((key) => key.revokedAt) ?? [];

  return (
    <main>
      <h1>API keys</h1>
      {error && <p className="error" role="alert">{error}</p>}
      {problem && <p className="error" role="alert">{problem}</p>}
      {testSession && (
        <p className="note" data-testid="test-session-keys">
          You signed in with a test key, so this session stays in test mode: it makes test keys only, and revokes only test keys. Sign in with a live key to make or revoke a live one.
        </p>
      )}
      <div className="actions">
        {!testSession && (
          <button type="button" onClick={() => void create(false)}>
            Create key
          </button>
        )}
        <button type="button" className={testSession ? undefined : 'secondary'} onClick={() => void create(true)}>
          Create test key
        </button>
      </div>
      {created && (
        <ShownOnce
          title={created.test ? `Test key ${created.id}` : `Key ${created.id}`}
          value={created.key}
          note={
            created.test
              ? 'Copy it now: it is not shown again. Documents rendered with a test key carry a TEST stamp and do not count against the limit.'
              : 'Copy it now: it is not shown again. Use it as "Authorization: Bearer <key>", or `imprint login --api-key <key>`.'
          }
          onDone={() => setCreated(undefined)}
        />
      )}
      {data && (
        <table data-testid="keys">
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Kind</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {live.map((key) => (
              <tr key={key.id}>
                <td>
                  <code>{key.id}</code>
                  {key.current && <span className="badge">this session</span>}
                </td>
                <td>{key.test ? <span className="badge test">test</span> : 'live'}</td>
                <td>{formatTime(key.createdAt)}</td>
                <td>{key.lastUsedAt ? formatTime(key.lastUsedAt) : 'never'}</td>
                <td>
                  {(key.test || !testSession) && (
                    <button type="button" className="danger" onClick={() => void revoke(key)} aria-label={`Revoke ${key.id}`}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {revoked.length > 0 && (
        <details>
          <summary>{revoked.length} revoked</summary>
          <ul>
            {revoked.map((key) => (
              <li key={key.id}>
                <code>{key.id}</code> revoked {formatTime(key.revokedAt)}
              </li>
            ))}
          </ul>
        </details>
      )}
    </main>
  );
}
