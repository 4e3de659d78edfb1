/** The team's templates: every id with its latest version, publish time and size (the contract's "listed in the dashboard"). */
import { useState } from 'react';
import { formatBytes, formatTime } from '../format.js';
import { Link } from '../router.js';
import { useLoad } from '../use-load.js';

interface TemplateRow {
  id: string;
  uuid: string;
  latestVersion: number;
  publishedAt: string;
  bytes: number | null;
}

export function TemplatesPage() {
  const { data, error } = useLoad<{ templates: TemplateRow[] }>('/dashboard/api/templates');
  const [filter, setFilter] = useState('');
  const shown = data?.templates.filter((template) => template.id.toLowerCase().includes(filter.trim().toLowerCase()) || template.uuid.startsWith(filter.trim()));

  return (
    <main>
      <h1>Templates</h1>
      {error && <p className="error" role="alert">{error}</p>}
      <label className="filter">
        Filter <input type="search" value={filter} onChange={(event) => setFilter(event.target.value)} placeholder="id or uuid" />
      </label>
      {data && data.templates.length === 0 && (
        <p className="empty">
          No templates yet. Publish one with <code>imprint publish Invoice.tsx --id invoice</code>.
        </p>
      )}
      {shown && shown.length > 0 && (
        <table data-testid="templates">
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Latest version</th>
              <th scope="col">Published</th>
              <th scope="col">Size</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((template) => (
              <tr key={template.uuid}>
                <td>
                  <Link to={`/dashboard/templates/${encodeURIComponent(template.id)}`}>{template.id}</Link>
                </td>
                <td>v{template.latestVersion}</td>
                <td>{formatTime(template.publishedAt)}</td>
                <td>{formatBytes(template.bytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data && data.templates.length > 0 && shown?.length === 0 && <p className="empty">No template matches “{filter}”.</p>}
    </main>
  );
}
