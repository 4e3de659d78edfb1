/**
 * The accessibility findings of the template's last printed preview, under its pages: what
 * `imprint check --a11y` reports (axe-core in the page, then the tagged PDF), grouped by
 * impact, most severe first, each with its rule and a link that opens the JSX line to fix.
 */
import { useState } from 'react';
import { EditorLink } from './editor-link.js';
import type { AccessibilityState, Finding, Impact } from './protocol.js';

const GROUPS: { impact: Impact; label: string }[] = [
  { impact: 'critical', label: 'Critical' },
  { impact: 'serious', label: 'Serious' },
  { impact: 'moderate', label: 'Moderate' },
  { impact: 'minor', label: 'Minor' },
];

const fileName = (file: string) => file.slice(file.lastIndexOf('/') + 1);

function summary(findings: Finding[]): string {
  if (findings.length === 0) return 'no findings';
  return GROUPS.map(({ impact }) => [impact, findings.filter((f) => f.impact === impact).length] as const)
    .filter(([, count]) => count > 0)
    .map(([impact, count]) => `${count} ${impact}`)
    .join(' · ');
}

function FindingItem({ finding }: { finding: Finding }) {
  return (
    <li data-rule={finding.rule} title={finding.element}>
      {finding.at ? <EditorLink at={finding.at}>{`${fileName(finding.at.file)}:${finding.at.line}:${finding.at.column}`}</EditorLink> : <span className="where">{finding.source === 'pdf' ? 'PDF' : 'page'}</span>}{' '}
      <span className="message">{finding.message}</span>{' '}
      {finding.helpUrl ? (
        <a className="rule" href={finding.helpUrl} target="_blank" rel="noreferrer">
          {finding.rule}
        </a>
      ) : (
        <code className="rule">{finding.rule}</code>
      )}
    </li>
  );
}

export function A11yPanel({ state }: { state: AccessibilityState }) {
  const [open, setOpen] = useState(true);
  const worst = GROUPS.find(({ impact }) => state.findings.some((f) => f.impact === impact))?.impact ?? 'none';
  const note = state.status === 'checking' ? 'checking…' : state.status === 'failed' ? 'the check failed' : `with ${state.props}`;
  return (
    <details className={`a11y worst-${worst}`} open={open} onToggle={(event) => setOpen(event.currentTarget.open)} data-testid="a11y" data-status={state.status} data-count={state.findings.length}>
      <summary>
        <strong>Accessibility</strong> <span className="a11y-summary">{summary(state.findings)}</span> <span className="note">{note}</span>
      </summary>
      {state.error && <pre className="a11y-error">{state.error}</pre>}
      {GROUPS.map(({ impact, label }) => {
        const group = state.findings.filter((f) => f.impact === impact);
        return group.length === 0 ? null : (
          <section key={impact} className={`impact ${impact}`} data-impact={impact}>
            <h3>
              {label} ({group.length})
            </h3>
            <ul>
              {group.map((finding, index) => (
                <FindingItem key={index} finding={finding} />
              ))}
            </ul>
          </section>
        );
      })}
    </details>
  );
}
