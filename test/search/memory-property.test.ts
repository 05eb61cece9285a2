// The in-process index against the reference engine (the semantics evaluated literally), on
// random catalogs and queries (test/support/search-arbitraries.ts): the same total, the same
// page, the same scores and distances, for every page; with filters and "near me" too.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { buildIndex } from '../../src/search/memory/build.ts';
import { MemoryIndex } from '../../src/search/memory/memory-index.ts';
import { ReferenceEngine } from '../../src/search/reference.engine.ts';
import {
  catalogOf,
  densePlacedSchoolArb,
  denseQueryArb,
  denseSchoolArb,
  denseScopedQueryArb,
  namesakeQueryArb,
  namesakeSchoolArb,
  type QueryCase,
  placedSchoolArb,
  queryArb,
  schoolArb,
  scopedQueryArb,
} from '../support/search-arbitraries.ts';

/** Every query's total, page, scores and distances from the index equal the reference engine's, asked `rounds` times (the later ones from the index's caches). */
async function expectSameAnswers(
  catalog: CatalogSchool[],
  queries: readonly QueryCase[],
  rounds: number,
): Promise<void> {
  const index = new MemoryIndex(buildIndex(catalog));
  const reference = new ReferenceEngine(catalog);
  // Each query's words are asked again with the next query's scope: an answer kept for other
  // filters, another point or another page must not be the one given.
  const asks = queries.flatMap((q, i) => {
    const { words: _words, ...next } = queries[(i + 1) % queries.length]!;
    return [q, { ...next, words: q.words }];
  });
  for (const { words, ...scope } of asks) {
    const query = { ...scope, plan: planQuery(words.join(' ')) };
    const expected = await reference.search(query);
    // What was asked, in the message of a failure.
    const asked = { query: words.join(' '), ...scope };
    for (let round = 0; round < rounds; round++) {
      const actual = index.search(query);
      expect({ asked, total: actual.total, hits: actual.hits }).toStrictEqual({
        asked,
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

  test('when schools have levels, types, tags and places, and queries filter by them and rank near a point (300 runs), then the same', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(placedSchoolArb, { minLength: 1, maxLength: 60 }),
        fc.array(scopedQueryArb, { minLength: 1, maxLength: 10 }),
        async (schools, queries) => {
          await expectSameAnswers(catalogOf(schools), queries, 2);
        },
      ),
      { numRuns: 300, seed: 20261126 },
    );
  }, 120_000);

  test('when many schools tie on few words and few places, pages are small and deep, and queries are near a point (200 runs), then the same', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(densePlacedSchoolArb, { minLength: 20, maxLength: 200 }),
        fc.array(denseScopedQueryArb, { minLength: 1, maxLength: 10 }),
        async (schools, queries) => {
          await expectSameAnswers(catalogOf(schools), queries, 1);
        },
      ),
      { numRuns: 200, seed: 20261127 },
    );
  }, 120_000);

  test('when many schools are named alike and the query is the name, near a point (200 runs), then the same: the nearest namesake first', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(namesakeSchoolArb, { minLength: 5, maxLength: 80 }),
        fc.array(namesakeQueryArb, { minLength: 1, maxLength: 10 }),
        async (schools, queries) => {
          await expectSameAnswers(catalogOf(schools), queries, 1);
        },
      ),
      { numRuns: 200, seed: 20261128 },
    );
  }, 120_000);
});
