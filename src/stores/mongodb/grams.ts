// MongoDB's $text matches whole words only. To give it the prefix matching the contract
// promises ("linc" finds Lincoln), each name is indexed with every term a query word may be:
// the prefixes of its words from two letters up (edge n-grams), and one-letter words whole
// (a one-letter query word matches a whole word, not every word starting with that letter).
// The domain's query terms are then looked up as whole words, exactly like FTS5's prefix query.

export function edgeGrams(terms: readonly string[]): string[] {
  const grams = new Set<string>();
  for (const term of terms) {
    if (term.length === 1) grams.add(term);
    // By code point, so that a prefix never ends inside a surrogate pair; "one letter" is the
    // domain's `length === 1` (src/domain/search.service.ts), in UTF-16 units like here.
    let prefix = '';
    for (const char of term) {
      prefix += char;
      if (prefix.length >= 2) grams.add(prefix);
    }
  }
  return [...grams];
}
