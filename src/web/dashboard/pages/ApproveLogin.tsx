/** `imprint login --web`: the person sees which machine asks and approves; the CLI then receives a new key of this team. */
import { useState } from 'react';
import { send } from '../api.js';
import { formatTime } from '../format.js';
import { Link } from '../router.js';
import { signedOutIfGone, useLoad } from '../use-load.js';

interface CodeInfo {
  code: string;
  machine: string;
  createdAt: string;
  expiresAt: string;
  state: 'pending' | 'approved' | 'claimed' | 'expired';
  team: string;
}

export function ApproveLogin({ code, team, testSession }: { code: string; team: string; testSession: boolean }) {
  const { data, error } = useLoad<CodeInfo>(`/dashboard/api/login-codes/${encodeURIComponent(code)}`);
  const [approved, setApproved] = useState(false);
  const [problem, setProblem] = useState<string>();
  const approve = async () => {
    try {
      await send('POST', `/dashboard/api/login-codes/${encodeURIComponent(code)}/approve`, {});
      setApproved(true);
    } catch (reason) {
      signedOutIfGone(reason);
      setProblem((reason as Error).message);
    }
  };
  return (
    <main>
      <h1>Command-line login</h1>
      {error && <p className="error" role="alert">{error}</p>}
      {problem && <p className="error" role="alert">{problem}</p>}
      {data && !approved && data.state === 'pending' && (
        <section className="card approve">
          <p>
            <strong data-testid="login-machine">{data.machine}</strong> asks for a new API key of team <strong>{team}</strong>.
          </p>
          {testSession && (
            <p className="note" data-testid="login-test-key">
              You signed in with a test key, so the command line gets a <strong>test key</strong>: its documents are stamped TEST and not counted. Sign in with a live key to give it a live one.
            </p>
          )}
          <p>
            Check that your terminal shows the code <code className="code" data-testid="login-code">{data.code}</code>. Asked {formatTime(data.createdAt)}; the code expires {formatTime(data.expiresAt)}.
          </p>
          <div className="actions">
            <button type="button" onClick={() => void approve()}>
              Approve
            </button>
            <Link to="/dashboard">Cancel</Link>
          </div>
        </section>
      )}
      {data && !approved && data.state !== 'pending' && <p className="note">This code is {data.state === 'expired' ? 'expired' : 'already used'}. Run <code>imprint login --web</code> again for a new one.</p>}
      {approved && (
        <p className="note" role="status" data-testid="login-approved">
          Approved. Your terminal receives a {testSession ? 'test key' : 'key'} of team {team} in a moment; you can close this page.
        </p>
      )}
    </main>
  );
}
