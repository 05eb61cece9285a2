// What a typed query asks for: its words, how each may match, and its equality key.
import { canonicalKeyOfWords } from './analysis.ts';
import { words } from '../shared/normalize.ts';
import { STOP_WORDS, synonymsOf, translationsOf } from './synonyms.ts';

/** A last word this short is still being typed: its whole-word matches count as starts. */
export const OPEN_LETTERS = 2;

/** Words of a query beyond this many are ignored: they could only narrow a match further. */
export const MAX_QUERY_WORDS = 10;

export interface QueryWord {
  /** Folded. */
  readonly text: string;
  /** Other ways of writing this word, matching as the word itself would (st → saint). */
  readonly synonyms: readonly string[];
  /** The word in other languages, matching a little below it (university → université). */
  readonly translations: readonly string[];
  /** Edits forgiven when the word is compared with the start of a longer word (the word being typed): typoBudget of its own length. */
  readonly typos: number;
  /** The word being typed (the query's last), so a typo may also be inside the start of a longer word. */
  readonly last: boolean;
  /** The word being typed, one or two letters long: a whole-word match of it counts as a start (matching.ts). */
  readonly open: boolean;
}

export interface SearchPlan {
  /** The words that count, in the order typed, distinct: n of the score's "words found out of n". */
  readonly words: readonly QueryWord[];
  /** The words as typed, in order, repeats kept: indexes into `words` (for "the name starts with the query"). */
  readonly sequence: readonly number[];
  /** Every word as typed, folded, stop words included: what the equality key is made of. */
  readonly typed: readonly string[];
  /** The equality key (analysis.ts); empty when the query has none. */
  readonly canonical: string;
}

/**
 * Edits forgiven in a word of this many letters: 0 up to 4, 1 from 5 to 8, 2 from 9. When a typed
 * word is compared with a whole word, the longer of the two decides (matching.ts): "unon" is one
 * edit from the 5-letter "union", so it finds Union College. Letters are UTF-16 code units (the
 * folded words are Latin letters and digits), as the index's trie counts them.
 */
export function typoBudget(letters: number): number {
  return letters >= 9 ? 2 : letters >= 5 ? 1 : 0;
}

/**
 * Every word may match as a whole word (or one of its synonyms), as the start of a word (it may
 * still be being typed), or with typos. Stop words ("of", "the", "de") are dropped unless the
 * query has nothing else, or the stop word is the last one typed: it may be the start of a word
 * ("empire beauty school-la" → Lakeland), and a user typing "university of" wants the
 * Universities of something. Duplicates count once.
 */
export function planQuery(query: string): SearchPlan {
  const all = words(query);
  const distinct = [...new Set(all)];
  const lastTyped = all[all.length - 1];
  const significant = distinct.filter((w) => !STOP_WORDS.has(w) || w === lastTyped);
  const chosen = (significant.length > 0 ? significant : distinct).slice(0, MAX_QUERY_WORDS);
  const index = new Map(chosen.map((w, i) => [w, i]));
  return {
    words: chosen.map((text, i) => {
      const last = i === chosen.length - 1 && text === lastTyped;
      return {
        text,
        synonyms: synonymsOf(text),
        translations: translationsOf(text),
        typos: typoBudget(text.length),
        last,
        open: last && [...text].length <= OPEN_LETTERS,
      };
    }),
    sequence: all.flatMap((w) => (index.has(w) ? [index.get(w)!] : [])).slice(0, 2 * MAX_QUERY_WORDS),
    typed: all,
    canonical: queryKey(all),
  };
}

/**
 * The small words (synonyms.ts, STOP_WORDS) a query begins with before its first word that counts
 * (`the` of "the laur", `de la` of "de la source"), or none: when a name begins with them too and
 * starts with the query, it ranks before the names that only start with it (ranking-rules.ts,
 * step 5′). A small word that counts (the last typed, or the only ones) is no lead; two at most
 * are read (MAX_LEAD).
 */
export function leadingSmallWords(plan: SearchPlan): readonly string[] {
  const counted = new Set(plan.words.map((w) => w.text));
  const lead: string[] = [];
  for (const w of plan.typed) {
    if (!STOP_WORDS.has(w) || counted.has(w) || lead.length === MAX_LEAD) break;
    lead.push(w);
  }
  return lead;
}

/** Leading small words read, at most: "the", "de la" (the index keeps a name's first two: index-data.ts, docLead). */
export const MAX_LEAD = 2;

/**
 * The plan without the words no school has (an engine knows which): they are left out as if they
 * had not been typed, so "harvard university zyxw" is still the name Harvard University. The
 * score still counts them (ranking-rules.ts, similarityScore).
 */
export function withoutWords(plan: SearchPlan, keep: readonly number[]): SearchPlan {
  if (keep.length === plan.words.length) return plan;
  const kept = new Set(keep);
  const gone = new Set(plan.words.filter((_, i) => !kept.has(i)).map((w) => w.text));
  const position = new Map(keep.map((w, i) => [w, i]));
  const typed = plan.typed.filter((w) => !gone.has(w));
  return {
    words: keep.map((i) => plan.words[i]!),
    sequence: plan.sequence.filter((i) => kept.has(i)).map((i) => position.get(i)!),
    typed,
    canonical: queryKey(typed),
  };
}

/**
 * The equality key of the words typed; none when the last is a small word: the query is still
 * being typed ("american le", "university of") and is no school's whole name, though the key
 * would leave that word out.
 */
function queryKey(typed: readonly string[]): string {
  const last = typed[typed.length - 1];
  return last !== undefined && STOP_WORDS.has(last) ? '' : canonicalKeyOfWords(typed);
}
