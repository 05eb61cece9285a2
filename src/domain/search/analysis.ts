// What a name, an alternative name or a city becomes for searching (terms), and the key that
// says when a query *is* a name (equality). Shared by every engine and by the reference.
import { apostropheParts, words } from '../shared/normalize.ts';
import { abbreviationsIn, canonicalWord, phraseOf, placedWord, STOP_WORDS } from './synonyms.ts';

/**
 * The terms a text is found by: its words (a hyphen separates words, so "Pierre-De-Coubertin"
 * is found by "pierre de coubertin"), the parts of apostrophe words of two or more letters
 * ("queens" and "queen"), runs of single letters joined ("Texas A & M", "Texas A and M" →
 * "am"), the word a word stands for at its place ("Smith El" → "elementary"), abbreviations of the phrases it contains ("cc" for "Community
 * College") and the phrases of the abbreviations it contains. Single-word synonyms are not
 * indexed: the query asks for them. Hyphenated words are not joined into one term: in directory
 * names a hyphen mostly separates a campus ("School-Little Rock"), and "schoollittle" would only
 * be a false start of "school".
 */
export function indexTerms(text: string): string[] {
  const base = words(text);
  const terms = new Set(base);
  // A name published with its article last is found as it is read: "Oasis, l'" by "l'oasis".
  const reading = readingOrder(text);
  if (reading !== undefined) for (const w of words(reading)) terms.add(w);
  for (const part of apostropheParts(text)) if (part.length >= 2) terms.add(part);
  for (const initials of initialRuns(base.filter((w) => !STOP_WORDS.has(w)))) terms.add(initials);
  for (const abbreviation of abbreviationsIn(base)) terms.add(abbreviation);
  for (const w of base) for (const p of phraseOf(w) ?? []) terms.add(p);
  base.forEach((w, i) => {
    const placed = placedWord(w, i);
    if (placed) terms.add(placed);
  });
  return [...terms];
}

/**
 * Equality key: the words in canonical form (synonyms, abbreviations spelled out, initials
 * joined), without stop words, sorted. A query and a name with the same key are the same name:
 * "St. Mary's College" = "saint marys college"; "Texas A&M University" = "texas a and m
 * university"; "Houston CC" = "Houston Community College". Empty when nothing is left.
 */
export function canonicalKey(text: string): string {
  return canonicalKeyOfWords(words(text));
}

/**
 * The equality key of a name without its last word when that word is "School" ("Lincoln
 * Elementary School" → the key of "Lincoln Elementary"), or undefined. People drop it, and
 * directories do too: one state lists "Valley Elementary", the next "Valley Elementary School".
 * Only the last word, and only with a word left before it: "School of Nursing" keeps its name.
 */
export function keyWithoutSchool(name: string): string | undefined {
  const list = words(name);
  if (list.length < 2 || canonicalWord(list[list.length - 1]!) !== 'school') return undefined;
  return canonicalKeyOfWords(list.slice(0, -1)) || undefined;
}

/**
 * An article a directory writes after the name (Quebec's "Étincelle, l'", "Sentiers-alpins, des",
 * "Nouveau-Monde (édifice Renaud), du"; Ontario's "Hill Academy, The"): the text, the comma and
 * the article, nothing after it.
 */
const TRAILING_ARTICLE = /^(.*\S)\s*,\s*(the|du|des|de la|de l['’]|l['’]|d['’]|la|le|les)\s*$/iu;

/**
 * A name with its article last (TRAILING_ARTICLE) as it is read and typed, the article first
 * ("Étincelle, l'" → "l'Étincelle", "Sentiers-alpins, des" → "des Sentiers-alpins"), or undefined
 * for any other name. The name is found by its words (indexTerms), is named (its equality key:
 * readingOrderKey) and spelled as typed (matching.ts, namedAsTyped) in either order.
 */
export function readingOrder(name: string): string | undefined {
  const m = TRAILING_ARTICLE.exec(name);
  if (!m) return undefined;
  const article = m[2]!;
  return /['’]$/u.test(article) ? `${article}${m[1]!}` : `${article} ${m[1]!}`;
}

/** The equality key of a name's reading order (readingOrder) when it differs from the name's own, or undefined. */
export function readingOrderKey(name: string): string | undefined {
  const reading = readingOrder(name);
  if (reading === undefined) return undefined;
  const key = canonicalKey(reading);
  return key && key !== canonicalKey(name) ? key : undefined;
}

/** canonicalKey of text already split into folded words (normalize.ts, words). */
export function canonicalKeyOfWords(list: readonly string[]): string {
  const out: string[] = [];
  const placed = list.map((w, i) => placedWord(w, i) ?? w);
  for (const w of joinInitials(placed.filter((w) => !STOP_WORDS.has(w)))) {
    for (const part of phraseOf(w) ?? [w]) {
      if (!STOP_WORDS.has(part)) out.push(canonicalWord(part));
    }
  }
  return out.sort().join(' ');
}

/** Runs of two or more one-character words, joined: ["texas", "a", "m"] → ["am"] (stop words already left out: "A and M"). */
function initialRuns(list: readonly string[]): string[] {
  const runs: string[] = [];
  let run = '';
  let length = 0;
  for (const w of [...list, '']) {
    if (w.length === 1) {
      run += w;
      length++;
    } else {
      if (length >= 2) runs.push(run);
      run = '';
      length = 0;
    }
  }
  return runs;
}

/** The list with each run of one-character words replaced by the run joined. */
function joinInitials(list: readonly string[]): string[] {
  const out: string[] = [];
  let run = '';
  for (const w of [...list, '']) {
    if (w.length === 1) {
      run += w;
      continue;
    }
    if (run) out.push(run);
    run = '';
    if (w) out.push(w);
  }
  return out;
}
