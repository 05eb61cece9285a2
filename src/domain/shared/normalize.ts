// Text normalisation shared by the index and the query, so that every engine sees the same words.
// Engines never normalise on their own: they receive what the functions here derive.

/** Apostrophes as directories and keyboards write them ("Queen's", "Queen’s", "Queen`s"). */
export const APOSTROPHES = /['’ʼ‘`´]/gu;
const NON_WORD = /[^\p{L}\p{N}]+/gu;
// biome-ignore lint/suspicious/noControlCharactersInRegex: every ASCII character, control characters included.
const ASCII = /^[\u0000-\u007f]*$/;

/** Case-folded and accent-free, apostrophes kept: the common step of fold() and of the split forms. */
function foldKeepingApostrophes(text: string): string {
  // ASCII has no decompositions, no marks and none of the letters below: lower case is all of
  // it (most names, cities and queries; the import folds every school's name).
  if (ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .replace(/œ/g, 'oe')
    .replace(/ł/g, 'l')
    .replace(/đ/g, 'd')
    .replace(/ı/g, 'i');
}

/** Case-folded, accent-free, apostrophes removed ("St. Mary's École" → "st. marys ecole"). */
export function fold(text: string): string {
  return foldKeepingApostrophes(text).replace(APOSTROPHES, '');
}

/** Words of a text: folded, split on anything that is not a letter or a digit ("Wilkes-Barre" → wilkes, barre). */
export function words(text: string): string[] {
  return fold(text)
    .split(NON_WORD)
    .filter((w) => w.length > 0);
}

/** The words with apostrophes read as separators ("Queen's" → queen, s; "L'École" → l, ecole). */
export function apostropheParts(text: string): string[] {
  return foldKeepingApostrophes(text)
    .replace(APOSTROPHES, ' ')
    .split(NON_WORD)
    .filter((w) => w.length > 0);
}

/** The sort key that orders names the same way on every engine: folded words joined by one space. */
export function nameSortKey(name: string): string {
  return words(name).join(' ');
}
