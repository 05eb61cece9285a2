// The reviewed synonym table: the one place that says which words mean the same in a school's
// name. The query side reads it (a query word also matches its synonyms, as whole words), the
// index side reads the phrase abbreviations (a name with "Community College" is also found by
// "cc"), and equality reads both (the query "st marys college" *is* the name "Saint Mary's
// College"). Add to it with care: every pair here makes some names match more queries.

/**
 * One word written in several ways (abbreviations, spellings): each matches the others as the
 * word itself would. The first of each group is the canonical form (used for equality). Only
 * true equivalents: "tech" is not here, because it abbreviates both "technology" and "technical"
 * (and a prefix already finds both).
 */
export const WORD_GROUPS: readonly (readonly string[])[] = [
  ['saint', 'st'],
  ['sainte', 'ste'],
  ['mount', 'mt'],
  ['fort', 'ft'],
  ['university', 'univ'],
  ['college', 'coll'],
  ['institute', 'inst'],
  ['center', 'centre', 'ctr'],
  ['theater', 'theatre'],
  ['junior', 'jr'],
  ['senior', 'sr'],
  ['national', 'natl'],
  ['international', 'intl'],
  // The short form the institutions use themselves (Penn State, UPenn, Penn Medicine).
  ['pennsylvania', 'penn'],
  // How K-12 directories write them (CCD: "ALBERTVILLE ELEM SCH", "VISTA GROVE PREPARATORY ACAD")
  // and people type them.
  ['elementary', 'elem'],
  ['school', 'sch'],
  ['academy', 'acad'],
  ['preparatory', 'prep'],
];

/**
 * One word in several languages: each matches the others too, a little below the word as typed,
 * so that "université" lists the Universités first and "laval university" still finds Université
 * Laval. The first of each group is the canonical form (a translated name is the same name).
 */
export const TRANSLATION_GROUPS: readonly (readonly string[])[] = [
  ['university', 'universite', 'universidad'],
  ['technology', 'technologie', 'tecnologia'],
  ['polytechnic', 'polytechnique', 'politecnica'],
  ['college', 'colegio'],
  ['institute', 'institut', 'instituto'],
];

/** Abbreviations of phrases, both ways: a name with the phrase is also found by the abbreviation, and the reverse. */
export const PHRASE_ABBREVIATIONS: readonly (readonly [abbreviation: string, phrase: string])[] = [
  ['cc', 'community college'],
  ['hs', 'high school'],
  ['jhs', 'junior high school'],
  ['ms', 'middle school'],
  // New York City's numbered schools: "P.S. 123", "I.S. 61" (single letters are joined: ps, is).
  ['ps', 'public school'],
  ['is', 'intermediate school'],
];

/**
 * "El" after a name's first word is Texas's and Pennsylvania's "Elementary" ("SMITH EL",
 * "ALLEGHENY EL SCH": 5,400 CCD names); first, it is the Spanish article ("El Paso", "El Camino").
 */
export const ELEMENTARY_EL = 'el';

/** The word a word stands for at its place in a name (index > 0): "el" → "elementary"; undefined when none. */
export function placedWord(word: string, index: number): string | undefined {
  return index > 0 && word === ELEMENTARY_EL ? 'elementary' : undefined;
}

/**
 * Words that carry no meaning of their own in a school's name ("University *of* Texas *at*
 * Austin", "École *de la* Salle", "Texas A *and* M"): a query word among these is not required
 * to match (unless the query has nothing else), and equality ignores them. "&" is no word at all.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'the',
  'of',
  'at',
  'and',
  'in',
  'for',
  'on',
  'de',
  'du',
  'des',
  'la',
  'le',
  'les',
  'et',
]);

/**
 * The words that say what kind of school a name is, not which one ("*University of* Notre Dame",
 * "*École* Sainte-Bernadette", "*High School*"): a name may also be typed from the first word
 * after them (matching.ts, nameStarts), so "notre dame" starts the University of Notre Dame as it
 * starts Notre Dame College, and prominence decides between them.
 */
export const GENERIC_WORDS: ReadonlySet<string> = new Set([
  'university',
  'univ',
  'universite',
  'universidad',
  'college',
  'colegio',
  'school',
  'ecole',
  'escuela',
  'academy',
  'academie',
  'institute',
  'institut',
  'instituto',
  'community',
  'high',
  'middle',
  'elementary',
  'junior',
  'senior',
  'secondary',
  'secondaire',
  'primary',
  'primaire',
  'polyvalente',
]);

const canonical = new Map<string, string>();
const alternatives = new Map<string, readonly string[]>();
for (const group of WORD_GROUPS) {
  for (const word of group) {
    canonical.set(word, group[0]!);
    alternatives.set(
      word,
      group.filter((w) => w !== word),
    );
  }
}
const translated = new Map<string, readonly string[]>();
for (const group of TRANSLATION_GROUPS) {
  // A translation group's first word may itself have spellings ("university", "univ").
  const all = group.flatMap((w) => [w, ...(alternatives.get(w) ?? [])]);
  for (const word of all) {
    if (!canonical.has(word)) canonical.set(word, group[0]!);
    const same = new Set([word, ...(alternatives.get(word) ?? [])]);
    translated.set(
      word,
      all.filter((w) => !same.has(w)),
    );
  }
}

/** The other ways of writing a word (none when it has no synonyms). */
export function synonymsOf(word: string): readonly string[] {
  return alternatives.get(word) ?? [];
}

/** The word in the other languages of its translation group (none when it has none). */
export function translationsOf(word: string): readonly string[] {
  return translated.get(word) ?? [];
}

/** The canonical form of a word (itself when it has no synonyms). */
export function canonicalWord(word: string): string {
  return canonical.get(word) ?? word;
}

const phrases = PHRASE_ABBREVIATIONS.map(([abbreviation, phrase]) => ({ abbreviation, phrase: phrase.split(' ') }));

/** Abbreviations of the phrases a run of words contains ("lincoln community college" → cc). */
export function abbreviationsIn(wordList: readonly string[]): string[] {
  const found: string[] = [];
  for (const { abbreviation, phrase } of phrases) {
    for (let i = 0; i + phrase.length <= wordList.length; i++) {
      if (phrase.every((w, j) => wordList[i + j] === w)) {
        found.push(abbreviation);
        break;
      }
    }
  }
  return found;
}

/** The phrase an abbreviation stands for, as words (undefined when it is none). */
export function phraseOf(abbreviation: string): readonly string[] | undefined {
  return phrases.find((p) => p.abbreviation === abbreviation)?.phrase;
}
