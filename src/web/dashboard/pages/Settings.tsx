/** The team's webhook signing secret: rotate it (the new one is shown once). */
import { useState } from 'react';
import { send } from '../api.js';
import { signedOutIfGone } from '../use-load.js';
import { ShownOnce } from './ShownOnce.js';

export function SettingsPage() {
  const [secret, setSecret] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const rotate = async () => {
    if (!confirm('Make a new webhook signing secret? Receivers checking the old one will reject webhooks until they get the new one.')) return;
    try {
      setSecret((await send<{ secret: string }>('POST', '/dashboard/api/webhook-secret', {})).secret);
    } catch (reason) {
      signedOutIfGone(reason);
      setProblem((reason as Error).message);
    }
  };
  return (
    <main>
      <h1>Settings</h1>
      <h2>Webhook signing secret</h2>
      <p>Job webhooks are signed with this secret (Standard Webhooks, <code>whsec_…</code>). The service cannot show the current one again; rotating makes a new one.</p>
      {problem && <p className="error" role="alert">{problem}</p>}
      <button type="button" onClick={() => void rotate()}>
        Rotate webhook secret
      </button>
      {secret && <ShownOnce title="New webhook signing secret" value={secret} note="Copy it now into your webhook receivers: it is not shown again." onDone={() => setSecret(undefined)} />}
    </main>
  );
}
