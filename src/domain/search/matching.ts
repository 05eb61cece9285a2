// How one query word matches one term: the predicates every engine implements and the reference
// evaluates literally. Distances are optimal string alignment (Damerau–Levenshtein where a
// transposed pair is one edit and is not edited again), over UTF-16 code units.
import type { QueryWord } from './query.ts';
import { Kind } from './ranking.ts';

/** Optimal string alignment distance of a and b, or max + 1 when it is over max. */
export function osaDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  let prev2 = new Int32Array(n + 1);
  let prev = Int32Array.from({ length: n + 1 }, (_, j) => j);
  let row = new Int32Array(n + 1);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = row[0]!;
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        d = Math.min(d, prev2[j - 2]! + 1);
      }
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    [prev2, prev, row] = [prev, row, prev2];
  }
  return Math.min(prev[n]!, max + 1);
}

/** Whether some start of `term` (of any length) is within `max` edits of `word`. */
export function startWithin(word: string, term: string, max: number): boolean {
  for (let end = Math.max(0, word.length - max); end <= Math.min(term.length, word.length + max); end++) {
    if (osaDistance(word, term.slice(0, end), max) <= max) return true;
  }
  return false;
}

/**
 * The best way a query word matches a term: Exact (the word or a synonym), Prefix (the term
 * starts with the word), Typo (within the word's typo budget; for the word being typed, also a
 * start of the term within it), or None.
 */
export function matchKind(word: QueryWord, term: string): Kind {
  if (term === word.text || word.synonyms.includes(term)) return Kind.Exact;
  if (term.startsWith(word.text)) return Kind.Prefix;
  if (word.typos > 0) {
    if (osaDistance(word.text, term, word.typos) <= word.typos) return Kind.Typo;
    if (word.last && startWithin(word.text, term, word.typos)) return Kind.Typo;
  }
  return Kind.None;
}
