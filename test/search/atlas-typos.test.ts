// The Atlas engine's typo clauses (src/search/mongodb/atlas-typos.ts) against the rules' own
// matching (src/domain/search/matching.ts): `fuzzy` with the word's own budget plus the `wildcard`
// patterns of the longer terms must find exactly the terms the rules call a typo of the whole
// word, as Atlas evaluates them (the stand-in's FuzzyQuery and wildcard: test/support/atlas-search.ts).
// Words and terms over three letters, so that they are often one or two edits apart.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { osaDistance } from '../../src/domain/search/matching.ts';
import { typoBudget } from '../../src/domain/search/query.ts';
import {
  beyondGrams,
  FUZZY_MAX_EXPANSIONS,
  fuzzyEdits,
  longerTermPatterns,
  startPattern,
} from '../../src/search/mongodb/atlas-typos.ts';
import { searchIndexDefinition } from '../../src/search/mongodb/atlas-search-index.ts';
import { fuzzyTerms, wildcardRegExp } from '../support/atlas-search.ts';

/** Whether the rules forgive `term` as a typo of the whole word (matchKind's whole-word test). */
function rulesTypo(word: string, term: string): boolean {
  const budget = typoBudget(Math.max(word.length, term.length));
  return budget > 0 && osaDistance(word, term, budget) <= budget;
}

/** Whether Atlas finds `term` by the engine's typo clauses for `word`. */
function atlasTypo(word: string, term: string): boolean {
  const edits = fuzzyEdits(word);
  const dictionary = new Map([[term, new Set([0])]]);
  const fuzzy =
    edits > 0 &&
    fuzzyTerms(dictionary, word, { maxEdits: edits, prefixLength: 0, maxExpansions: FUZZY_MAX_EXPANSIONS });
  return (fuzzy && fuzzy.length > 0) || longerTermPatterns(word).some((p) => wildcardRegExp(p).test(term));
}

const letters = fc.constantFrom('a', 'b', 'c');
const wordArb = fc.array(letters, { minLength: 2, maxLength: 11 }).map((l) => l.join(''));
/** The word with up to three random edits: substitutions, deletions, insertions, transpositions. */
const editedArb = (word: string) =>
  fc.array(fc.tuple(fc.nat(), fc.constantFrom('sub', 'del', 'ins', 'swap'), letters), { maxLength: 3 }).map((edits) =>
    edits.reduce((w, [at, op, c]) => {
      const i = w.length === 0 ? 0 : at % w.length;
      if (op === 'sub') return w.slice(0, i) + c + w.slice(i + 1);
      if (op === 'del') return w.slice(0, i) + w.slice(i + 1);
      if (op === 'ins') return w.slice(0, i) + c + w.slice(i);
      return w.slice(0, i) + (w[i + 1] ?? '') + (w[i] ?? '') + w.slice(i + 2);
    }, word),
  );

describe('Atlas typo clauses', () => {
  test("when a word and a term are up to three edits apart, then fuzzy with the word's own budget and the longer terms' patterns find the term exactly when the rules forgive it (2,000 runs)", () => {
    fc.assert(
      fc.property(
        wordArb.chain((word) => fc.tuple(fc.constant(word), editedArb(word))),
        ([word, term]) => {
          expect({ word, term, atlas: atlasTypo(word, term) }).toEqual({ word, term, atlas: rulesTypo(word, term) });
        },
      ),
      { numRuns: 2000, seed: 20261126 },
    );
  });

  test("when the word has 4, 7 or 8 letters, then every term of the next lengths is checked: the patterns match exactly the longer terms the rules forgive beyond the word's own budget", () => {
    for (const word of ['abca', 'abcabca', 'abcabcab', 'aaaaaaaa']) {
      const own = fuzzyEdits(word);
      const patterns = longerTermPatterns(word).map(wildcardRegExp);
      for (const extra of [1, 2]) {
        // Every term of that length over the three letters (3^10 at most).
        const length = word.length + extra;
        for (let n = 0; n < 3 ** length; n++) {
          const term = n.toString(3).padStart(length, '0').replace(/0/g, 'a').replace(/1/g, 'b').replace(/2/g, 'c');
          const forgiven = rulesTypo(word, term);
          const needed = forgiven && osaDistance(word, term, own) > own;
          const matched = patterns.some((p) => p.test(term));
          // Every longer term fuzzy misses and the rules forgive; none the rules do not (a pattern may repeat what fuzzy finds).
          if (matched ? !forgiven : needed) expect({ word, term, matched }).toEqual({ word, term, matched: forgiven });
        }
      }
    }
  });

  test('when the word has another length, then fuzzy alone covers its typos: no patterns', () => {
    expect(['abc', 'abcde', 'abcdef', 'abcdefghi', 'abcdefghijkl'].map((w) => longerTermPatterns(w))).toEqual([
      [],
      [],
      [],
      [],
      [],
    ]);
    expect(longerTermPatterns('yael')).toEqual(['?yael', 'y?ael', 'ya?el', 'yae?l', 'yael?']);
    expect([3, 4, 5, 8, 9].map((n) => fuzzyEdits('a'.repeat(n)))).toEqual([0, 0, 1, 1, 2]);
  });

  test('when a word is longer than the autocomplete grams, then its start is a wildcard prefix, escaped', () => {
    const grams = searchIndexDefinition('schools_search').definition['mappings'].fields.search.fields.name[1];
    expect(grams.maxGrams).toBe(15);
    expect(beyondGrams('a'.repeat(15))).toBe(false);
    expect(beyondGrams('a'.repeat(16))).toBe(true);
    expect(startPattern('interdenominational')).toBe('interdenominational*');
    expect(wildcardRegExp(startPattern('a?b*c\\d')).test('a?b*c\\dxyz')).toBe(true);
    expect(wildcardRegExp(startPattern('a?b*c\\d')).test('axbxc\\dxyz')).toBe(false);
  });
});
