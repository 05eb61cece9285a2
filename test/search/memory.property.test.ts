// The in-process index against the reference engine (the semantics evaluated literally), on
// random catalogs and queries (test/support/search-arbitraries.ts): the same total, the same
// page, the same scores, for every page.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { CatalogSchool } from '../../src/domain/search/engine.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { buildIndex } from '../../src/search/memory/build.ts';
import { MemoryIndex } from '../../src/search/memory/memory.index.ts';
import { ReferenceEngine } from '../../src/search/reference.engine.ts';
import { catalogOf, denseQueryArb, denseSchoolArb, queryArb, schoolArb } from '../support/search-arbitraries.ts';

interface QueryCase {
  readonly words: string[];
  readonly state: string | undefined;
  readonly offset: number;
  readonly limit: number;
}

/** Every query's total, page and scores from the index equal the reference engine's, asked `rounds` times (the later ones from the index's caches). */
async function expectSameAnswers(
  catalog: CatalogSchool[],
  queries: readonly QueryCase[],
  rounds: number,
): Promise<void> {
  const index = new MemoryIndex(buildIndex(catalog));
  const reference = new ReferenceEngine(catalog);
  for (const q of queries) {
    const query = { plan: planQuery(q.words.join(' ')), state: q.state, offset: q.offset, limit: q.limit };
    const expected = await reference.search(query);
    for (let round = 0; round < rounds; round++) {
      const actual = index.search(query);
      expect({ query: q.words.join(' '), total: actual.total, hits: actual.hits }).toEqual({
        query: q.words.join(' '),
        total: expected.total,
        hits: expected.hits,
      });
    }
  }
}

describe('MemoryIndex against the reference engine', () => {
  test('when catalogs and queries are random (300 runs), then totals, pages and scores are the same', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(schoolArb, { minLength: 1, maxLength: 50 }),
        fc.array(queryArb, { minLength: 1, maxLength: 10 }),
        async (schools, queries) => {
          await expectSameAnswers(catalogOf(schools), queries, 2);
        },
      ),
      { numRuns: 300, seed: 20261123 },
    );
  }, 120_000);

  test('when many schools tie on few words and pages are small and deep (200 runs), then the same', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(denseSchoolArb, { minLength: 20, maxLength: 200 }),
        fc.array(denseQueryArb, { minLength: 1, maxLength: 10 }),
        async (schools, queries) => {
          await expectSameAnswers(catalogOf(schools), queries, 1);
        },
      ),
      { numRuns: 200, seed: 20261124 },
    );
  }, 120_000);
});
