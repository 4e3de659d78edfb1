/**
 * "Did you mean": the known name an unknown one was probably meant to be. Known confusions
 * first (a name from another part of the API: `documentId` is A1's path parameter, a job names
 * its template in `template`), then spelling (an edit distance of at most a third of the word).
 */
import leven from 'leven';

export function nearMiss(name: string, known: readonly string[], confusions: Readonly<Record<string, string>> = {}): string | undefined {
  const lower = name.toLowerCase();
  const confused = Object.entries(confusions).find(([wrong]) => wrong.toLowerCase() === lower)?.[1];
  if (confused) return confused;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = leven(lower, candidate.toLowerCase());
    if (distance <= Math.max(1, Math.floor(candidate.length / 3)) && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}
