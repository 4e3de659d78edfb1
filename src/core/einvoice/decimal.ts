/**
 * Money arithmetic for the invoice totals. EN 16931 rounds every amount to two decimals
 * (BR-DEC rules); binary floating point makes 1.005 * 100 = 100.49999..., so a value is first
 * cut to 12 significant digits (far beyond any invoice's precision) and then rounded half away
 * from zero, as the norm's calculation examples do.
 */
const clean = (value: number): number => Number(value.toPrecision(12));

/** Rounded to cents, half away from zero. */
export function roundAmount(value: number): number {
  const cents = clean(clean(value) * 100);
  return (Math.sign(cents) * Math.round(Math.abs(cents))) / 100 || 0;
}

/** Sum of amounts, each already in cents: added as integers, so no drift. */
export function sumAmounts(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + Math.round(roundAmount(value) * 100), 0) / 100;
}

/** An amount as the XML writes it: two decimals, no exponent ("1234.50"). */
export const formatAmount = (value: number): string => roundAmount(value).toFixed(2);

/** A quantity, price or rate: as many decimals as it has (at most 6), none trailing. */
export function formatDecimal(value: number): string {
  const fixed = clean(value).toFixed(6);
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

/** Two amounts the same to the cent. */
export const sameAmount = (a: number, b: number): boolean => Math.round(roundAmount(a) * 100) === Math.round(roundAmount(b) * 100);
