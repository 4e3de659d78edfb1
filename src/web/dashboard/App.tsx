/** The dashboard: sign-in, then the team's pages behind one header. */
import { useCallback, useEffect, useState } from 'react';
import { ApiError, getJson, send, setCsrf, type SessionInfo } from './api.js';
import { ApproveLogin } from './pages/ApproveLogin.js';
import { JobPage, JobsPage } from './pages/Jobs.js';
import { KeysPage } from './pages/Keys.js';
import { SettingsPage } from './pages/Settings.js';
import { SignIn } from './pages/SignIn.js';
import { TemplatePage } from './pages/Template.js';
import { TemplatesPage } from './pages/Templates.js';
import { UsagePage } from './pages/Usage.js';
import { Link, navigate, usePath } from './router.js';

const SECTIONS = [
  { path: '/dashboard', label: 'Templates', match: (path: string) => path === '/dashboard' || path.startsWith('/dashboard/templates') },
  { path: '/dashboard/usage', label: 'Usage' },
  { path: '/dashboard/jobs', label: 'Jobs' },
  { path: '/dashboard/keys', label: 'Keys' },
  { path: '/dashboard/settings', label: 'Settings' },
];

function Page({ path, session, onSessionEnded }: { path: string; session: SessionInfo; onSessionEnded(): void }) {
  const parts = path.replace(/\/+$/, '').split('/').slice(2).map(decodeURIComponent);
  switch (parts[0]) {
    case undefined:
    case 'templates':
      return parts[1] ? <TemplatePage id={parts[1]} testSession={session.test} /> : <TemplatesPage />;
    case 'usage':
      return <UsagePage />;
    case 'jobs':
      return parts[1] ? <JobPage id={parts[1]} /> : <JobsPage />;
    case 'keys':
      return <KeysPage onSessionEnded={onSessionEnded} testSession={session.test} />;
    case 'settings':
      return <SettingsPage />;
    case 'login':
      return <ApproveLogin code={parts[1] ?? ''} team={session.team.name} testSession={session.test} />;
    default:
      return (
        <main>
          <h1>No such page</h1>
          <p>
            <Link to="/dashboard">Back to the templates</Link>
          </p>
        </main>
      );
  }
}

export function App() {
  const path = usePath();
  const [session, setSession] = useState<SessionInfo | null>();
  const [problem, setProblem] = useState<string>();

  const adopt = useCallback((info: SessionInfo | null) => {
    setCsrf(info?.csrf ?? '');
    setSession(info);
  }, []);

  useEffect(() => {
    getJson<SessionInfo>('/dashboard/api/session')
      .then(adopt)
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 401) adopt(null);
        else setProblem((error as Error).message);
      });
  }, [adopt]);

  // Any page that finds the session gone (idle, revoked elsewhere) brings the sign-in back.
  useEffect(() => {
    const onEnded = () => adopt(null);
    addEventListener('imprint:signed-out', onEnded);
    return () => removeEventListener('imprint:signed-out', onEnded);
  }, [adopt]);

  if (problem) return <main className="centered"><p role="alert">The dashboard could not reach its service: {problem}</p></main>;
  if (session === undefined) return <main className="centered"><p>Loading…</p></main>;
  if (session === null) return <SignIn onSignedIn={adopt} forLogin={path.startsWith('/dashboard/login/')} />;

  const signOut = async () => {
    try {
      await send('DELETE', '/dashboard/api/session');
    } finally {
      adopt(null);
      navigate('/dashboard');
    }
  };

  return (
    <div className="shell">
      <header className="top">
        <span className="brand">Imprint</span>
        <nav aria-label="Dashboard">
          {SECTIONS.map((section) => {
            const current = section.match ? section.match(path) : path.startsWith(section.path);
            return (
              <Link key={section.path} to={section.path} className={current ? 'current' : undefined} current={current}>
                {section.label}
              </Link>
            );
          })}
        </nav>
        <span className="team" data-testid="team-name">
          Team <strong>{session.team.name}</strong>
          {session.test && (
            <span className="badge test" data-testid="test-mode" title="Signed in with a test key: renders are stamped TEST and not counted, keys made here are test keys, only test jobs are shown.">
              test mode
            </span>
          )}
        </span>
        <button type="button" className="secondary" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <Page path={path} session={session} onSessionEnded={() => adopt(null)} />
    </div>
  );
}
