// How one query word matches one term: the predicates every engine implements and the reference
// evaluates literally. Distances are optimal string alignment (Damerau–Levenshtein where a
// transposed pair is one edit and is not edited again), over UTF-16 code units.
import { canonicalKey, canonicalKeyOfWords, keyWithoutSchool, readingOrder, readingOrderKey } from './analysis.ts';
import { words } from '../shared/normalize.ts';
import { typoBudget, type QueryWord, type SearchPlan } from './query.ts';
import { Kind } from './ranking-rules.ts';
import { GENERIC_WORDS, STOP_WORDS } from './synonyms.ts';

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
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
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
 * The best way a query word matches a term: Exact (the word itself or a synonym), Translation,
 * Prefix (the term starts with the word), Typo (within the typo budget: typoBudget of the longer of
 * the two; for the word being typed, also a start of the term within the budget of its own
 * length), or None. A word still being typed of one or two letters (QueryWord.open) is a start
 * even where it is a whole word: the "m" of "university of m" is not the "M" of "Texas A & M".
 */
export function matchKind(word: QueryWord, term: string): Kind {
  if (term === word.text || word.synonyms.includes(term)) return word.open ? Kind.Prefix : Kind.Exact;
  if (word.translations.includes(term)) return word.open ? Kind.Prefix : Kind.Translation;
  if (term.startsWith(word.text)) return Kind.Prefix;
  const whole = typoBudget(Math.max(word.text.length, term.length));
  if (whole > 0 && osaDistance(word.text, term, whole) <= whole) return Kind.Typo;
  if (word.last && word.typos > 0 && startWithin(word.text, term, word.typos)) return Kind.Typo;
  return Kind.None;
}

/** Whether a word matches a term at all; without `typos`, a typo match is none. */
export function matches(word: QueryWord, term: string, typos = true): boolean {
  const kind = matchKind(word, term);
  return kind !== Kind.None && (typos || kind !== Kind.Typo);
}

/**
 * Whether a name starts with the query: its words without stop words (nameWords) begin, at one of
 * the places a name may be typed from (`starts`: nameStarts), with the query's words as typed
 * (plan.sequence), in order, each matching the name's word at its place (as a whole word, a
 * synonym, a start or within its typos).
 */
export function startsWithQuery(
  plan: SearchPlan,
  name: readonly string[],
  typos = true,
  starts: readonly number[] = [0],
): boolean {
  return starts.some(
    (at) =>
      at + plan.sequence.length <= name.length &&
      plan.sequence.every((w, i) => matches(plan.words[w]!, name[at + i]!, typos)),
  );
}

/**
 * Whether a name holds the query: its words (nameWords) hold the query's words as typed, in
 * order, one after another, from any word on (startsWithQuery from anywhere): what a ranked
 * school needs to come before a namesake that starts with the query (ranking-rules.ts, step 4′).
 */
export function holdsQuery(plan: SearchPlan, name: readonly string[], typos = true): boolean {
  return startsWithQuery(
    plan,
    name,
    typos,
    name.map((_, at) => at),
  );
}

/** Whether a text's first folded words are `lead` (query.ts, leadingSmallWords); false without any. */
export function beginsWith(lead: readonly string[], text: string): boolean {
  if (lead.length === 0) return false;
  const all = words(text);
  return lead.every((w, i) => all[i] === w);
}

/**
 * Whether a query with leading small words may name a school by this alternative name: only if
 * the alternative name begins with them too. Alternative names are acronyms and short forms
 * ("UNI", "SPI"): "the uni" is someone typing *The University of …*, not the acronym of the
 * University of Northern Iowa. A name is still named with or without them ("the greenvale
 * school" names *Greenvale School*, after *The Greenvale School*).
 */
export function aliasNamedBy(lead: readonly string[], alias: string): boolean {
  return lead.length === 0 || beginsWith(lead, alias);
}

/**
 * Whether a name begins with the query's leading small words (`lead`: query.ts,
 * leadingSmallWords), as its first folded words, and its words without stop words (nameWords)
 * begin with the query's words as typed (startsWithQuery from the first word): "the laur" leads
 * *The Laurel School*, not *Laurel Elementary* nor *The Academy at Laurel*.
 */
export function leadsWithQuery(
  plan: SearchPlan,
  lead: readonly string[],
  name: string,
  list: readonly string[],
  typos = true,
): boolean {
  return beginsWith(lead, name) && startsWithQuery(plan, list, typos, [0]);
}

/**
 * Whether the query spells out the whole name (in any order, with starts of words and typos):
 * the name (nameWords) has no more words than the query, every one of them matches a query word,
 * and every query word matches a term of the name (`inName`: the name's terms, indexTerms).
 */
export function coversName(
  plan: SearchPlan,
  name: readonly string[],
  inName: readonly string[],
  typos = true,
): boolean {
  return (
    name.length <= plan.words.length &&
    name.every((n) => plan.words.some((w) => matches(w, n, typos))) &&
    plan.words.every((w) => inName.some((t) => matches(w, t, typos)))
  );
}

/** A name's words in order, stop words left out: what startsWithQuery and coversName compare. */
export function nameWords(name: string): string[] {
  return words(name).filter((w) => !STOP_WORDS.has(w));
}

/** Whether a name may have a campus or system separator (a dash, " at ", " in "). */
const HAS_SEPARATOR = /[-\u2010-\u2014]|\s(?:at|in)\s/iu;

/** A campus after a system's name: "University of California-Berkeley", "The University of Texas at Austin". */
const CAMPUS_SEPARATOR = /\s*[-‐-—]\s*|\s+at\s+/giu;

/**
 * Where in its words (nameWords) a name may be typed from: its first word; the first word after
 * its leading generic words ("University of *Notre* Dame", "École *Sainte*-Bernadette"); and the
 * first word of its campus, after a system's name that has a generic word
 * ("University of California-*Berkeley*", "The University of Texas at *Austin*"). People call a
 * school by its distinctive part; prominence then decides among the namesakes that start so.
 * Ascending, distinct, at most three. `list`: nameWords(name), when the caller has it.
 */
export function nameStarts(name: string, list: readonly string[] = nameWords(name)): number[] {
  const starts = [0];
  let lead = 0;
  while (lead < list.length && GENERIC_WORDS.has(list[lead]!)) lead++;
  if (lead > 0 && lead < list.length) starts.push(lead);
  let campus = -1;
  // Most names have no separator: the test is cheaper than the walk (an index build asks 150,000).
  if (HAS_SEPARATOR.test(name))
    for (const m of name.matchAll(CAMPUS_SEPARATOR)) {
      const before = nameWords(name.slice(0, m.index));
      const after = nameWords(name.slice(m.index + m[0].length));
      if (after.length > 0 && before.some((w) => GENERIC_WORDS.has(w))) campus = before.length;
    }
  if (campus > 0 && campus < list.length && !starts.includes(campus)) starts.push(campus);
  return starts.sort((a, b) => a - b);
}

/** A system's name before a campus or a place: "Columbia University *in* the City of New York" too. */
const SYSTEM_SEPARATOR = /\s*[-\u2010-\u2014]\s*|\s+(?:at|in)\s+/giu;

/**
 * The words without the generic ones they begin with and the one generic word they end with
 * ("University of Notre Dame" → notre dame, "Brown University" → brown). One at the end only:
 * "Pitt Community College" is not "pitt", which is the University of Pittsburgh's.
 */
function core(list: readonly string[]): readonly string[] {
  let start = 0;
  let end = list.length;
  while (start < end && GENERIC_WORDS.has(list[start]!)) start++;
  if (end > start && GENERIC_WORDS.has(list[end - 1]!)) end--;
  return list.slice(start, end);
}

/**
 * The other equality keys (analysis.ts, canonicalKey) of a name: what people call a school by its
 * distinctive part, so that a query that is one of them is the school's name. The name without its
 * leading and trailing generic words ("notre dame", "brown", "mcgill"); and for a campus of a
 * system, the system's distinctive part ("michigan", "columbia") and the campus's ("berkeley",
 * "austin"). Prominence then decides
 * among the schools a query names: the flagship before a small school of that very name. Only for
 * ranked schools (prominence above 0, rank-candidates.ts): a K-12 school is named in full.
 */
export function distinctiveKeys(name: string): string[] {
  const own = canonicalKeyOfWords(words(name));
  const keys = new Set(distinctiveParts(name).map((p) => canonicalKeyOfWords(p)));
  keys.delete(own);
  keys.delete('');
  return [...keys];
}

/** The distinctive parts of a name (distinctiveKeys) as its words, stop words left out, in order. */
function distinctiveParts(name: string): (readonly string[])[] {
  const parts: (readonly string[])[] = [core(nameWords(name))];
  let split: RegExpExecArray | undefined;
  if (HAS_SEPARATOR.test(name))
    for (const m of name.matchAll(SYSTEM_SEPARATOR)) {
      const before = nameWords(name.slice(0, m.index));
      if (before.some((w) => GENERIC_WORDS.has(w)) && nameWords(name.slice(m.index + m[0].length)).length > 0)
        split = m;
    }
  if (split) {
    const system = nameWords(name.slice(0, split.index));
    // Not the system's whole name: that is often another school's ("Concordia University-Irvine").
    parts.push(core(system), core(nameWords(name.slice(split.index + split[0].length))));
  }
  return parts.filter((p) => p.length > 0);
}

/**
 * Whether a school the query names (equality 2) is named as typed, word for word: its name's folded
 * words (stop words kept) are the query's (`typed`: query.ts, SearchPlan.typed), in order, or are
 * those and a last word "School" (directories drop or add it: keyWithoutSchool), or are those of
 * its reading order ("l'étincelle" for "Étincelle, l'": analysis.ts, readingOrder); for a ranked
 * school also when the query's words but its stop words are one of its distinctive parts as
 * spelled (distinctiveKeys: "duke" names *Duke University* as it names *Duke School*, and
 * prominence decides between them). Among the schools a query names, those named as typed come
 * first (ranking-rules.ts, step 7): "hillview elementary" → *Hillview Elementary* before *Hillview
 * Elem.*, "the greenvale school" → *The Greenvale School* before *Greenvale School*, "college of
 * wilmington" → *College of Wilmington* before *Wilmington College*.
 */
export function namedAsTyped(typed: readonly string[], name: string, ranked: boolean): boolean {
  if (typed.length === 0) return false;
  const n = typed.length;
  const spelled = (list: readonly string[]) => {
    if (list.length !== n && (list.length !== n + 1 || list[n] !== 'school')) return false;
    for (let i = 0; i < n; i++) if (list[i] !== typed[i]) return false;
    return true;
  };
  if (spelled(words(name))) return true;
  const reading = readingOrder(name);
  if (reading !== undefined && spelled(words(reading))) return true;
  if (!ranked) return false;
  const significant = typed.filter((w) => !STOP_WORDS.has(w));
  return distinctiveParts(name).some((p) => p.length === significant.length && p.every((w, i) => w === significant[i]));
}

/**
 * Every key a school's name is equal to besides its own (rank-candidates.ts, equality 2): a ranked
 * school's distinctive parts (distinctiveKeys), and for any school its name without a last word
 * "School" (analysis.ts, keyWithoutSchool: "lincoln elementary" is *Lincoln Elementary School*,
 * so that among its namesakes the nearest or the most prominent one decides, not whether the
 * directory wrote "School"); and a name published with its article last, in reading order
 * (analysis.ts, readingOrderKey: "l'oasis" is *Oasis, l'*).
 */
export function equalNameKeys(name: string, ranked: boolean): string[] {
  const keys = ranked ? distinctiveKeys(name) : [];
  const short = keyWithoutSchool(name);
  if (short !== undefined && short !== canonicalKey(name) && !keys.includes(short)) keys.push(short);
  const reading = readingOrderKey(name);
  if (reading !== undefined && !keys.includes(reading)) keys.push(reading);
  return keys;
}
