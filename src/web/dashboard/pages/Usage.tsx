/** This month's documents against the team's limit, and a chart of documents per day for the last 30 days. */
import { useLoad } from '../use-load.js';

interface Usage {
  month: string;
  used: number;
  limit: number;
  days: { day: string; count: number }[];
}

const CHART = { width: 720, height: 200, pad: 28 };

function DayChart({ days }: { days: Usage['days'] }) {
  const max = Math.max(1, ...days.map((day) => day.count));
  const slot = (CHART.width - CHART.pad) / days.length;
  const scale = (CHART.height - CHART.pad) / max;
  const total = days.reduce((sum, day) => sum + day.count, 0);
  return (
    <figure>
      <svg viewBox={`0 0 ${CHART.width} ${CHART.height}`} role="img" aria-label={`Documents per day over the last ${days.length} days: ${total} in all, at most ${max} in a day`} data-testid="usage-chart">
        <line x1={CHART.pad} y1={CHART.height - CHART.pad} x2={CHART.width} y2={CHART.height - CHART.pad} className="axis" />
        <text x={CHART.pad - 4} y={12} className="label end">{max}</text>
        <text x={CHART.pad - 4} y={CHART.height - CHART.pad} className="label end">0</text>
        {days.map((day, index) => {
          const height = day.count * scale;
          return (
            <g key={day.day}>
              <rect className="bar" x={CHART.pad + index * slot + 2} y={CHART.height - CHART.pad - height} width={slot - 4} height={height}>
                <title>{`${day.day}: ${day.count}`}</title>
              </rect>
              {index % 5 === 0 && (
                <text x={CHART.pad + index * slot + slot / 2} y={CHART.height - 8} className="label middle">
                  {day.day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>Documents per day (UTC), last {days.length} days.</figcaption>
    </figure>
  );
}

export function UsagePage() {
  const { data, error } = useLoad<Usage>('/dashboard/api/usage');
  return (
    <main>
      <h1>Usage</h1>
      {error && <p className="error" role="alert">{error}</p>}
      {data && (
        <>
          <p data-testid="usage-month">
            <strong>{data.used}</strong> of <strong>{data.limit}</strong> documents used in {data.month} (UTC).
          </p>
          <meter min={0} max={data.limit} value={data.used} low={data.limit * 0.8} high={data.limit * 0.95} optimum={0} aria-label="documents used this month" />
          <DayChart days={data.days} />
        </>
      )}
    </main>
  );
}
