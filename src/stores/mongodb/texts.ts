// What the MongoDB pipelines (MONGODB_SEARCH=text or atlas) store and ask for: each name's
// words with a few synonyms, and the query's words. These pipelines predate the search core
// (src/domain/search/): they match every word as the start of a word of one name, with no
// typos, soft matching, city or prominence, and score by the share of the name's letters the
// query covers. The in-process engine (MONGODB_SEARCH=memory, the default) has the core's
// semantics on MongoDB too.
import { fold, words } from '../../domain/search/normalize.ts';

const APOSTROPHES = /['’ʼ‘`´]/gu;
const NON_WORD = /[^\p{L}\p{N}]+/gu;

/** Abbreviations that directory names use both ways; each side is indexed with the other. */
const SYNONYMS: Readonly<Record<string, string>> = {
  st: 'saint',
  saint: 'st',
  ste: 'sainte',
  sainte: 'ste',
  mt: 'mount',
  mount: 'mt',
  ft: 'fort',
  fort: 'ft',
};

/**
 * One searchable text (a school's name or one alternative name) as the pipelines index it:
 * `terms` are the words plus their synonyms and the split parts of apostrophe words, `length`
 * is the number of letters and digits of the name, the denominator of the pipelines' score.
 */
export interface SearchText {
  readonly terms: readonly string[];
  readonly length: number;
}

export function searchText(name: string): SearchText {
  const base = words(name);
  const terms = new Set(base);
  for (const w of base) {
    const syn = SYNONYMS[w];
    if (syn) terms.add(syn);
  }
  for (const part of fold(name.replace(APOSTROPHES, ' ')).split(NON_WORD)) {
    if (part) terms.add(part);
  }
  return { terms: [...terms], length: base.reduce((n, w) => n + w.length, 0) };
}

/** The pipelines' query: the distinct words, minus those that are a prefix of another one (one-letter words stay). */
export function queryTerms(query: string): string[] {
  const distinct = [...new Set(words(query))];
  return distinct.filter((t) => t.length === 1 || !distinct.some((other) => other !== t && other.startsWith(t)));
}

export function coveredLength(terms: readonly string[]): number {
  return terms.reduce((n, t) => n + t.length, 0);
}

/** The pipelines' score: letters the query covers over letters of the matched name, capped at 1. */
export function similarity(covered: number, matchedLength: number): number {
  if (matchedLength <= 0) return 0;
  return Math.round(Math.min(1, covered / matchedLength) * 10_000) / 10_000;
}
