/**
 * Adds to a team's documents of a day (the dashboard's chart), from `rows`: a VALUES list or a
 * SELECT of (team_id, day, count). The dashboard counts a served document this way (store.ts);
 * the job stores count a rendered row's day in the statement or transaction that records the
 * row (finishRow in core/store/sqlite/jobs.ts and postgres/jobs.ts).
 */
export const countDaySql = (rows: string) =>
  `INSERT INTO usage_daily (team_id, day, count) ${rows} ON CONFLICT (team_id, day) DO UPDATE SET count = usage_daily.count + excluded.count`;
