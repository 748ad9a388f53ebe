/**
 * "Did you mean …?" for a mistyped command or option, as the staff CLI's commander suggests: the candidates fewest
 * edits away (a letter added, dropped, changed, or two swapped), at most two, and only when most of the word is
 * right (a two-letter word is not "close" to every other).
 */

const MAX_EDITS = 2;
const MIN_SIMILARITY = 0.4;

/** Edits from `a` to `b`: insertions, deletions, substitutions and swaps of neighbours (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The candidates closest to `word`, in their own order; none when nothing is close. */
export function closest(word: string, candidates: readonly string[]): string[] {
  let best = MAX_EDITS + 1;
  let found: string[] = [];
  for (const candidate of new Set(candidates)) {
    const distance = editDistance(word, candidate);
    const length = Math.max(word.length, candidate.length);
    if (distance > best || (length - distance) / length <= MIN_SIMILARITY) continue;
    if (distance < best) found = [];
    best = distance;
    found.push(candidate);
  }
  return found;
}

/** Words as a sentence lists them: `a`, `a or b`, `a, b or c` (or with `and`). */
export const listed = (words: readonly string[], conjunction: 'or' | 'and' = 'or') =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}`;
