// The typo walks of the in-process index (src/search/memory/typos.ts) against the definition they
// implement, evaluated literally with matching.ts's osaDistance: the whole terms matchKind counts
// as typos of a word, and the highest trie nodes within the word's own budget. On a real
// vocabulary (the IPEDS seed's names and cities) with real words, some mistyped, and on small
// random vocabularies over three letters, where transpositions, repeats and near misses abound.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { osaDistance } from '../../src/domain/search/matching.ts';
import { words } from '../../src/domain/shared/normalize.ts';
import { typoBudget } from '../../src/domain/search/query.ts';
import { buildReverseTrie } from '../../src/search/memory/reverse-trie.ts';
import { buildTrie } from '../../src/search/memory/trie.ts';
import { MAX_EDITS } from '../../src/search/memory/typo-walk.ts';
import { Typos, type TypoTries } from '../../src/search/memory/typos.ts';

interface Case {
  readonly vocabulary: readonly string[];
  readonly tries: TypoTries;
  /** Every node but the root, depth first in the order of letters (the trie's), with the prefix it spells. */
  readonly prefixes: readonly { readonly node: number; readonly parent: number; readonly text: string }[];
}

function caseOf(list: readonly string[]): Case {
  const vocabulary = [...new Set(list)].sort();
  const trie = buildTrie(vocabulary);
  const prefixes: { node: number; parent: number; text: string }[] = [];
  const visit = (node: number, text: string) => {
    for (let child = trie.nodeFirstChild[node]!; child < trie.nodeFirstChild[node + 1]!; child++) {
      const spelled = text + String.fromCharCode(trie.nodeChar[child]!);
      prefixes.push({ node: child, parent: node, text: spelled });
      visit(child, spelled);
    }
  };
  visit(0, '');
  return { vocabulary, tries: { ...trie, ...buildReverseTrie(vocabulary) }, prefixes };
}

/** The terms within typoBudget of the longer of the two (matching.ts, matchKind), by id. */
function expectedTerms(c: Case, word: string): number[] {
  return c.vocabulary.flatMap((term, id) => {
    const budget = typoBudget(Math.max(word.length, term.length));
    return osaDistance(word, term, budget) <= budget ? [id] : [];
  });
}

/** The nodes within typoBudget of the word's length whose parent is not (nor any ancestor), depth first. */
function expectedNodes(c: Case, word: string): number[] {
  const budget = typoBudget(word.length);
  const covered = new Set<number>();
  const nodes: number[] = [];
  for (const { node, parent, text } of c.prefixes) {
    if (covered.has(parent)) covered.add(node);
    else if (osaDistance(word, text, budget) <= budget) {
      nodes.push(node);
      covered.add(node);
    }
  }
  return nodes;
}

function expectSame(c: Case, typos: Typos, word: string): void {
  expect({ word, terms: typos.terms(word), nodes: typos.nodes(word) }).toEqual({
    word,
    terms: expectedTerms(c, word),
    nodes: expectedNodes(c, word),
  });
}

/** One random edit of a word: a letter replaced, added, dropped, or two swapped. */
const editedArb = (wordArb: fc.Arbitrary<string>, letters: string) =>
  fc.tuple(wordArb, fc.nat(3), fc.nat(), fc.constantFrom(...letters)).map(([w, op, at, letter]) => {
    const i = w.length === 0 ? 0 : at % w.length;
    if (op === 0) return w.slice(0, i) + letter + w.slice(i + 1);
    if (op === 1) return w.slice(0, i) + letter + w.slice(i);
    if (op === 2) return w.slice(0, i) + w.slice(i + 1);
    return i + 1 < w.length ? w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2) : w;
  });

describe('typo walks against the distance they implement', () => {
  test('when the budget is read, then it never asks for more edits than a walk counts', () => {
    for (let letters = 0; letters <= 1000; letters++) expect(typoBudget(letters)).toBeLessThanOrEqual(MAX_EDITS);
  });

  test('when words of real names, as typed or with one or two edits, meet a real vocabulary (400 runs), then the same terms and nodes', () => {
    const seed = readFileSync(new URL('../../data/seed/ipeds-hd2022.ndjson', import.meta.url), 'utf8');
    const schools = seed
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as { schoolname: string; city: string });
    const nameWords = schools.flatMap((s) => words(s.schoolname));
    const c = caseOf([...nameWords, ...schools.flatMap((s) => words(s.city))]);
    const typos = new Typos(c.tries);
    const real = fc.constantFrom(...nameWords);
    const once = editedArb(real, 'abcdefghijklmnopqrstuvwxyz');
    fc.assert(
      fc.property(fc.oneof(real, once, editedArb(once, 'aeiou')), (word) => expectSame(c, typos, word)),
      { numRuns: 400, seed: 20261126 },
    );
  }, 60_000);

  test('when terms are longer than the trie counts below a node (255 letters), then the same terms and nodes', () => {
    const long = `${'ab'.repeat(150)}c`;
    const c = caseOf([long, `${long}d`, long.slice(0, 260), 'abc', 'abd']);
    const typos = new Typos(c.tries);
    for (const word of [
      long,
      long.slice(1),
      long.slice(0, 290),
      `x${long.slice(0, 289)}`,
      `${long.slice(0, 280)}xy`,
      'abd',
    ])
      expectSame(c, typos, word);
    expect(typos.nodes(long.slice(0, 290))).not.toEqual([]);
  });

  test('when vocabularies and words are random over three letters (300 runs), then the same terms and nodes', () => {
    const word = fc.stringMatching(/^[abc]{0,13}$/);
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[abc]{1,13}$/), { minLength: 1, maxLength: 300 }),
        fc.array(word, { minLength: 1, maxLength: 10 }),
        (list, queries) => {
          const c = caseOf(list);
          const typos = new Typos(c.tries);
          for (const q of queries) expectSame(c, typos, q);
        },
      ),
      { numRuns: 300, seed: 20261127 },
    );
  }, 60_000);
});
