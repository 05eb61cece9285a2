// What a typed query asks for: its words, how each may match, and its equality key.
import { canonicalKey } from './analysis.ts';
import { words } from './normalize.ts';
import { STOP_WORDS, synonymsOf } from './synonyms.ts';

/** Words of a query beyond this many are ignored: they could only narrow a match further. */
export const MAX_QUERY_WORDS = 10;

export interface QueryWord {
  /** Folded. */
  readonly text: string;
  /** Words that match as if they were this one, whole (st → saint). */
  readonly synonyms: readonly string[];
  /** Edits forgiven when a whole word is compared: 0 up to 4 letters, 1 for 5–8, 2 for 9 or more. */
  readonly typos: number;
  /** The word being typed (the query's last), so a typo may also be inside the start of a longer word. */
  readonly last: boolean;
}

export interface SearchPlan {
  /** The words that count, in the order typed, distinct: n of the score's "words found out of n". */
  readonly words: readonly QueryWord[];
  /** The equality key (analysis.ts); empty when the query has none. */
  readonly canonical: string;
}

export function typoBudget(word: string): number {
  const letters = [...word].length;
  return letters >= 9 ? 2 : letters >= 5 ? 1 : 0;
}

/**
 * Every word may match as a whole word (or one of its synonyms), as the start of a word (it may
 * still be being typed), or with typos. Stop words ("of", "the", "de") are dropped unless the
 * query has nothing else. Duplicates count once.
 */
export function planQuery(query: string): SearchPlan {
  const all = words(query);
  const distinct = [...new Set(all)];
  const significant = distinct.filter((w) => !STOP_WORDS.has(w));
  const chosen = (significant.length > 0 ? significant : distinct).slice(0, MAX_QUERY_WORDS);
  const lastTyped = all[all.length - 1];
  return {
    words: chosen.map((text, i) => ({
      text,
      synonyms: synonymsOf(text),
      typos: typoBudget(text),
      last: i === chosen.length - 1 && text === lastTyped,
    })),
    canonical: canonicalKey(query),
  };
}
