/**
 * A long table document for bench/tagged-cost.ts: `rows` rows of five cells under a repeated
 * header, with a heading every 500 rows (so the tagged print has bookmarks to make too);
 * `named` gives each heading a `data-outline` name, so the accessibility step rewrites the outline.
 */
export interface TableDocumentProps {
  rows: number;
  named?: boolean;
}

export default function TableDocument({ rows, named }: TableDocumentProps) {
  const sections = Math.ceil(rows / 500);
  return (
    <main style={{ fontFamily: 'sans-serif', fontSize: '9pt' }}>
      {Array.from({ length: sections }, (_, s) => (
        <section key={s}>
          <h2 data-outline={named ? `Part ${s + 1}` : undefined}>Ledger, part {s + 1}</h2>
          <table style={{ width: '100%', borderCollapse: 'collapse' }}>
            <thead>
              <tr><th>#</th><th>Account</th><th>Description</th><th>Date</th><th>Amount</th></tr>
            </thead>
            <tbody>
              {Array.from({ length: Math.min(500, rows - s * 500) }, (_, i) => {
                const n = s * 500 + i + 1;
                return (
                  <tr key={n} style={{ borderBottom: '1px solid #ddd' }}>
                    <td>{n}</td><td>ACC-{String(n * 7919 % 100000).padStart(5, '0')}</td><td>Line {n} of the ledger, entry text</td><td>2026-{String((n % 12) + 1).padStart(2, '0')}-{String((n % 28) + 1).padStart(2, '0')}</td><td>{((n * 37) % 10000 / 100).toFixed(2)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      ))}
    </main>
  );
}

TableDocument.PreviewProps = { rows: 100 };
