// The in-process index against the reference engine (the semantics evaluated literally), on
// random catalogs and queries: the same total, the same page, the same scores, for every page.
// The vocabulary is small so that names collide, nest, differ by one edit, share prefixes and
// tie on everything but prominence, name and id.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { CatalogSchool } from '../../src/domain/search/engine.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { buildIndex } from '../../src/search/memory/build.ts';
import { MemoryIndex } from '../../src/search/memory/memory.index.ts';
import { ReferenceEngine } from '../../src/search/reference.engine.ts';

const WORDS = [
  'saint', 'st', 'mary', "mary's", 'marys', 'school', 'schools', 'schol', 'a', 'm', 'a&m', 'école', 'ecole',
  'university', 'universty', 'univ', 'college', 'colege', 'community', 'cc', 'high', 'hs', 'the', 'of',
  'wilkes-barre', 'montréal', 'montreal', 'lincoln', 'linclon', 'queens', "queen's", 'u', 'université', 'universidad', 'penn', 'pennsylvania',
];
const CITIES = ['Montréal', 'Saint-Laurent', 'Lincoln', 'Springfield', 'Wilkes-Barre'];
const STATES = ['MA', 'QC', 'TX'];

const nameArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
const schoolArb = fc.record({
  name: nameArb,
  city: fc.constantFrom(...CITIES),
  state: fc.constantFrom(...STATES),
  aliases: fc.array(nameArb, { maxLength: 2 }),
  prominence: fc.integer({ min: 0, max: 2 }),
});
/** A word of the vocabulary, or a start of one, or one with a letter changed, dropped or swapped. */
const queryWordArb = fc.oneof(
  fc.constantFrom(...WORDS, 'sch', 'mar', 'z', 'uni', 'montr', 'schoo', 'colleg', 'lincol', 'xyzzy', 'l', 'q', 'pe', 'un', 'st', 'unon', 'pen'),
  fc.tuple(fc.constantFrom(...WORDS.filter((w) => w.length >= 5)), fc.nat(), fc.constantFrom('sub', 'del', 'swap', 'ins')).map(([w, at, op]) => {
    const i = at % (w.length - 1);
    if (op === 'sub') return w.slice(0, i) + 'x' + w.slice(i + 1);
    if (op === 'del') return w.slice(0, i) + w.slice(i + 1);
    if (op === 'ins') return w.slice(0, i) + 'e' + w.slice(i);
    return w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
  }),
);
const queryArb = fc.record({
  words: fc.array(queryWordArb, { minLength: 1, maxLength: 4 }),
  state: fc.option(fc.constantFrom(...STATES), { nil: undefined }),
  offset: fc.nat(12),
  limit: fc.integer({ min: 1, max: 8 }),
});

// Many schools from few words, small pages deep into the results: where the page's early stop
// (memory.index.ts, #top) must not stop before a better document.
const FEW = ['saint', 'st', 'sainte', 'mary', 'marys', 'school', 'schools', 'college', 'colleges', 's'];
const denseSchoolArb = fc.record({
  name: fc.array(fc.constantFrom(...FEW), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
  city: fc.constantFrom('Saint Mary', 'Springfield', 'Schoolcraft'),
  state: fc.constantFrom(...STATES),
  aliases: fc.array(fc.array(fc.constantFrom(...FEW), { minLength: 1, maxLength: 2 }).map((w) => w.join(' ')), { maxLength: 1 }),
  prominence: fc.integer({ min: 0, max: 1 }),
});
const denseQueryArb = fc.record({
  words: fc.array(fc.constantFrom(...FEW, 'sa', 'sch', 'col', 'mar'), { minLength: 1, maxLength: 2 }),
  state: fc.option(fc.constantFrom(...STATES), { nil: undefined }),
  offset: fc.nat(20),
  limit: fc.integer({ min: 1, max: 3 }),
});

function catalogOf(schools: Omit<CatalogSchool, 'id' | 'imageUrl'>[]): CatalogSchool[] {
  return schools.map((s, i) => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, imageUrl: null, ...s }));
}

interface QueryCase {
  readonly words: string[];
  readonly state: string | undefined;
  readonly offset: number;
  readonly limit: number;
}

/** Every query's total, page and scores from the index equal the reference engine's, asked `rounds` times (the later ones from the index's caches). */
async function expectSameAnswers(catalog: CatalogSchool[], queries: readonly QueryCase[], rounds: number): Promise<void> {
  const index = new MemoryIndex(buildIndex(catalog));
  const reference = new ReferenceEngine(catalog);
  for (const q of queries) {
    const query = { plan: planQuery(q.words.join(' ')), state: q.state, offset: q.offset, limit: q.limit };
    const expected = await reference.search(query);
    for (let round = 0; round < rounds; round++) {
      const actual = index.search(query);
      expect({ query: q.words.join(' '), total: actual.total, hits: actual.hits }).toEqual({ query: q.words.join(' '), total: expected.total, hits: expected.hits });
    }
  }
}

describe('MemoryIndex against the reference engine', () => {
  test('when catalogs and queries are random (300 runs), then totals, pages and scores are the same', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(schoolArb, { minLength: 1, maxLength: 50 }), fc.array(queryArb, { minLength: 1, maxLength: 10 }), async (schools, queries) => {
        await expectSameAnswers(catalogOf(schools), queries, 2);
      }),
      { numRuns: 300, seed: 20261123 },
    );
  }, 120_000);

  test('when many schools tie on few words and pages are small and deep (200 runs), then the same', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(denseSchoolArb, { minLength: 20, maxLength: 200 }), fc.array(denseQueryArb, { minLength: 1, maxLength: 10 }), async (schools, queries) => {
        await expectSameAnswers(catalogOf(schools), queries, 1);
      }),
      { numRuns: 200, seed: 20261124 },
    );
  }, 120_000);
});
