/** Time formats the store writes. ISO strings in UTC sort and compare as text, so SQL can use <=. */
export type Clock = () => Date;

export const toIso = (date: Date): string => date.toISOString();

/** The usage month a moment belongs to: limits are counted per calendar month in UTC. */
export const monthOf = (date: Date): string => date.toISOString().slice(0, 7);

/** The day (UTC) a moment belongs to: the dashboard's documents per day. */
export const dayOf = (date: Date): string => date.toISOString().slice(0, 10);

export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
