/** The team's jobs: status, counts and progress; one job's failed rows, webhook attempts, cancel and archive. */
import { useState } from 'react';
import { send } from '../api.js';
import { formatTime } from '../format.js';
import { Link } from '../router.js';
import { signedOutIfGone, useLoad } from '../use-load.js';

interface Job {
  id: string;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  total: number;
  done: number;
  failed: number;
  cancelled: number;
  createdAt: string;
  finishedAt?: string | null;
  template?: string;
  version?: number;
  name?: string;
  /** Submitted with a test key: its rows stamped TEST, none counted. */
  test?: boolean;
  webhook?: { url: string; attempts: { at: string; status?: number; error?: string }[] };
}

const TestBadge = () => (
  <span className="badge test" title="Submitted with a test key: stamped TEST, not counted">
    test
  </span>
);

const progress = (job: Job) => (
  <progress max={job.total} value={job.done + job.failed + job.cancelled} aria-label={`${job.done + job.failed + job.cancelled} of ${job.total} rows finished`} />
);

export function JobsPage() {
  const { data, error } = useLoad<{ jobs: Job[] }>('/dashboard/api/jobs');
  return (
    <main>
      <h1>Jobs</h1>
      {error && <p className="error" role="alert">{error}</p>}
      {data && data.jobs.length === 0 && (
        <p className="empty">
          No jobs yet. Submit one with <code>imprint render invoice --rows rows.csv</code> or <code>POST /api/jobs</code>.
        </p>
      )}
      {data && data.jobs.length > 0 && (
        <table data-testid="jobs">
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Status</th>
              <th scope="col">Progress</th>
              <th scope="col">Done / failed / total</th>
              <th scope="col">Submitted</th>
            </tr>
          </thead>
          <tbody>
            {data.jobs.map((job) => (
              <tr key={job.id}>
                <td>
                  <Link to={`/dashboard/jobs/${encodeURIComponent(job.id)}`}>{job.id}</Link>
                  {job.template && <div className="meta">{job.template}</div>}
                </td>
                <td>
                  <span className={`status ${job.status}`}>{job.status}</span> {job.test && <TestBadge />}
                </td>
                <td>{progress(job)}</td>
                <td>
                  {job.done} / {job.failed} / {job.total}
                </td>
                <td>{formatTime(job.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

interface JobDetails extends Job {
  archiveUrl: string;
  failedRows: { row: number; error?: string; code?: string }[];
}

export function JobPage({ id }: { id: string }) {
  const { data, error, reload } = useLoad<JobDetails>(`/dashboard/api/jobs/${encodeURIComponent(id)}`);
  const [problem, setProblem] = useState<string>();
  const cancel = async () => {
    if (!confirm(`Cancel the rows of ${id} that have not started? They are given back to the limit.`)) return;
    try {
      await send('POST', `/dashboard/api/jobs/${encodeURIComponent(id)}/cancel`, {});
      reload();
    } catch (reason) {
      signedOutIfGone(reason);
      setProblem((reason as Error).message);
    }
  };
  return (
    <main>
      <p className="crumbs">
        <Link to="/dashboard/jobs">Jobs</Link> / {id}
      </p>
      <h1>Job {id}</h1>
      {error && <p className="error" role="alert">{error}</p>}
      {problem && <p className="error" role="alert">{problem}</p>}
      {data && (
        <>
          <p>
            <span className={`status ${data.status}`}>{data.status}</span> {progress(data)} {data.done} done, {data.failed} failed, {data.cancelled} cancelled of {data.total}.
          </p>
          {data.test && (
            <p>
              <TestBadge /> Submitted with a test key: every row's PDF carries a TEST stamp, and none counts against the limit.
            </p>
          )}
          <p className="meta">
            Submitted {formatTime(data.createdAt)}
            {data.finishedAt ? `, finished ${formatTime(data.finishedAt)}` : ''}
            {data.template ? ` · template ${data.template} v${data.version}` : ''}
          </p>
          <div className="actions">
            {(data.status === 'queued' || data.status === 'running') && (
              <button type="button" className="danger" onClick={() => void cancel()}>
                Cancel job
              </button>
            )}
            {data.done > 0 && (
              <a className="button" href={data.archiveUrl} download>
                Download archive (zip)
              </a>
            )}
          </div>
          <h2>Failed rows</h2>
          {data.failedRows.length === 0 ? (
            <p className="empty">None.</p>
          ) : (
            <table data-testid="failed-rows">
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Error</th>
                </tr>
              </thead>
              <tbody>
                {data.failedRows.map((row) => (
                  <tr key={row.row}>
                    <td>{row.row}</td>
                    <td>
                      {row.code && <code>{row.code}</code>} {row.error}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h2>Webhook</h2>
          {!data.webhook ? (
            <p className="empty">This job has no webhook.</p>
          ) : (
            <>
              <p>
                <code>{data.webhook.url}</code>
              </p>
              {data.webhook.attempts.length === 0 ? (
                <p className="empty">No delivery attempt yet.</p>
              ) : (
                <table data-testid="webhook-attempts">
                  <thead>
                    <tr>
                      <th scope="col">Attempt</th>
                      <th scope="col">Answer</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.webhook.attempts.map((attempt) => (
                      <tr key={attempt.at}>
                        <td>{formatTime(attempt.at)}</td>
                        <td>{attempt.status ?? attempt.error}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </>
          )}
        </>
      )}
    </main>
  );
}
