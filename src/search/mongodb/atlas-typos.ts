// How the Atlas engine asks Atlas Search for a word's typos and starts so that Atlas finds exactly
// the terms the rules match (src/domain/search/matching.ts, matchKind), no more and no fewer.
//
// Atlas's `fuzzy` is Lucene's FuzzyQuery: optimal string alignment distance (a transposed pair is
// one edit), one `maxEdits` (1 or 2) for every term. The rules forgive edits by the longer of word
// and term (query.ts, typoBudget): "unon" (4 letters, no typo of its own) is one edit from the
// 5-letter "union". A `maxEdits` of the word's length + 1 (the engine's first choice) forgave
// "yael" its transposition of "yale", which the rules do not forgive a 4-letter word: Atlas then
// counted Yale for "yael", kept the word as known and found no university for "yael university",
// where the rules leave "yael" out and find the universities. It also missed what the rules
// forgive a 7-letter word in a 9-letter term (two edits). So a word's typos are asked in two parts:
// - `fuzzy` with the word's own budget: every term it finds is within the rules' budget too;
// - `wildcard` patterns listing exactly the longer terms the rules forgive more (a 4-letter word:
//   the 5-letter terms it is one insertion from; 7 and 8 letters: the 9- and 10-letter terms within
//   two edits), each `?` one letter.
// Starts of terms are the autocomplete field's edge grams, which stop at 15 letters, and Atlas
// truncates a longer query to 15 (it would then find starts of its first 15 letters): a longer
// word is asked as the `wildcard` prefix `word*` instead.
import { typoBudget } from '../../domain/search/query.ts';

/**
 * Terms `fuzzy` may consider per query word (Atlas's default is 50): Lucene keeps the terms with
 * the fewest edits (then the first in byte order) and ignores the others. On the 149,311-school
 * seed, the most terms of a name within a word's budget were 32 ("arlington"), the most edge grams
 * 51 ("marie", for the word being typed): the default already drops some. Lucene caps it at its
 * clause limit (1,024 by default), which counts every term of the whole query; 256 leaves room
 * for the other words and fields. docs/search.md (Atlas Search) says what is lost past it.
 */
export const FUZZY_MAX_EXPANSIONS = 256;

/** The autocomplete fields' maxGrams (atlas-search-index.json): the longest start Atlas holds. */
export const AUTOCOMPLETE_MAX_GRAMS = 15;

/** Letters as Atlas counts them: code points (the folded words are letters and digits). */
const lettersOf = (word: string): string[] => [...word];

/** A wildcard query matching `letters` literally (`?`, `*` and `\` escaped). */
function literal(letters: readonly string[]): string {
  return letters.map((c) => (c === '?' || c === '*' || c === '\\' ? `\\${c}` : c)).join('');
}

/** Whether the word is too long for the autocomplete fields' grams (Atlas would truncate it). */
export function beyondGrams(word: string): boolean {
  return lettersOf(word).length > AUTOCOMPLETE_MAX_GRAMS;
}

/** The wildcard query of the terms that start with the word: for words beyond the grams. */
export function startPattern(word: string): string {
  return `${literal(lettersOf(word))}*`;
}

/** Edits `fuzzy` forgives the word in any term: its own budget (0: no fuzzy clause). */
export function fuzzyEdits(word: string): number {
  return typoBudget(word.length);
}

const ANY = Symbol('any letter');
type Slot = string | typeof ANY;

/**
 * Wildcard patterns of the terms longer than `word` that the rules forgive more edits than the
 * word's own budget (fuzzyEdits): for each longer length m with typoBudget(m) above it and m −
 * |word| edits within it, every term of m letters within typoBudget(m) edits. With the fuzzy
 * clause they match exactly the terms matchKind calls a typo of the whole word. Empty for most
 * lengths: only 4, 7 and 8 letters have any.
 */
export function longerTermPatterns(word: string): string[] {
  const letters = lettersOf(word);
  const n = letters.length;
  // The rules count UTF-16 code units, Atlas code points: they agree on every folded Latin word.
  if (n !== word.length) return [];
  const own = typoBudget(n);
  const slots: Slot[][] = [];
  for (const inserted of [1, 2]) {
    const budget = typoBudget(n + inserted);
    if (budget <= own || inserted > budget) continue;
    if (inserted === 2) {
      // Two letters inserted, and nothing else.
      for (let i = 0; i <= n; i++) for (let j = i; j <= n; j++) slots.push(insert(insert(letters, j, ANY), i, ANY));
    } else if (budget === 1) {
      for (let i = 0; i <= n; i++) slots.push(insert(letters, i, ANY));
    } else {
      // One insertion and at most one more edit: a substitution (or none, the `?` standing for
      // the letter itself), or a transposition of a pair the insertion does not split.
      for (let j = 0; j < n; j++) {
        const substituted: Slot[] = [...letters];
        substituted[j] = ANY;
        for (let i = 0; i <= n; i++) slots.push(insert(substituted, i, ANY));
      }
      for (let j = 0; j + 1 < n; j++) {
        const swapped: Slot[] = [...letters];
        [swapped[j], swapped[j + 1]] = [letters[j + 1]!, letters[j]!];
        for (let i = 0; i <= n; i++) if (i !== j + 1) slots.push(insert(swapped, i, ANY));
      }
    }
  }
  return withoutCovered(slots).map((p) => p.map((s) => (s === ANY ? '?' : literal([s]))).join(''));
}

function insert(slots: readonly Slot[], at: number, slot: Slot): Slot[] {
  return [...slots.slice(0, at), slot, ...slots.slice(at)];
}

/** The patterns without repeats and without those another one covers (a `?` wherever they differ): the query stays short. */
function withoutCovered(patterns: readonly Slot[][]): Slot[][] {
  const key = (p: readonly Slot[]) => p.map((s) => (s === ANY ? '\u0000' : s)).join('\u0001');
  const distinct = [...new Map(patterns.map((p) => [key(p), p])).values()];
  const covers = (a: readonly Slot[], b: readonly Slot[]) =>
    a !== b && a.length === b.length && a.every((s, i) => s === ANY || s === b[i]);
  return distinct.filter((p) => !distinct.some((q) => covers(q, p)));
}
