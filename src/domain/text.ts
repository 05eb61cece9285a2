// Text normalisation shared by indexing and querying, so that every store matches the same way.
// Stores never normalise on their own: they receive the terms computed here.

const APOSTROPHES = /['’ʼ‘`´]/gu;
const NON_WORD = /[^\p{L}\p{N}]+/gu;

/** Case-folded, accent-free, apostrophes removed ("St. Mary's" → "st. marys"). */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[æ]/g, 'ae')
    .replace(/[ø]/g, 'o')
    .replace(/[œ]/g, 'oe')
    .replace(/[ł]/g, 'l')
    .replace(APOSTROPHES, '');
}

/** Words of a text: folded, split on anything that is not a letter or a digit. */
export function words(text: string): string[] {
  return fold(text).split(NON_WORD).filter((w) => w.length > 0);
}

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
 * One searchable text (a school's name or one alternative name) as a store indexes it:
 * `terms` are the words plus their synonyms and the split parts of apostrophe words
 * ("mary's" → "marys", "mary", "s"), `length` is the number of letters and digits of the name,
 * the denominator of the similarity score.
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
  // "Mary's" is indexed as "marys" (by fold) and also as "mary" + "s", so both spellings match.
  for (const part of fold(name.replace(APOSTROPHES, ' ')).split(NON_WORD)) {
    if (part) terms.add(part);
  }
  return { terms: [...terms], length: base.reduce((n, w) => n + w.length, 0) };
}

/** Sort key that orders names the same way on every store: folded words joined by one space. */
export function nameSortKey(name: string): string {
  return words(name).join(' ');
}
