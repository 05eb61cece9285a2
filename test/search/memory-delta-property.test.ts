// An index with changes applied (MemoryIndex.withChanges: the last full build, less the schools
// an import changed, and a small index of those schools as they are now) against one index built
// of the changed catalog: on random catalogs and random imports (new schools and new versions of
// stored ones, in one import or two), the same total, page, scores and distances, for every page,
// with filters and "near me" too. Whatever the engine does with a delta must be a full rebuild's
// answer exactly.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { buildIndex } from '../../src/search/memory/build.ts';
import { MemoryIndex } from '../../src/search/memory/memory-index.ts';
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

type Drawn = Omit<CatalogSchool, 'id' | 'imageUrl'>;

/**
 * An import drawn from `drawn` schools: each replaces the stored school at `slot` (modulo the
 * catalog's size) or, past it, is a new one. The ids are catalogOf's.
 */
function importOf(
  catalog: readonly CatalogSchool[],
  edits: readonly { slot: number; school: Drawn }[],
  next: () => number,
) {
  return edits.map(({ slot, school }) => {
    const id =
      slot < catalog.length * 2
        ? catalog[slot % catalog.length]!.id
        : catalogOf([school])[0]!.id.replace(/0{6}(\d{6})$/, (_, n) => `9${String(next()).padStart(5, '0')}${n}`);
    return { id, imageUrl: null, ...school } satisfies CatalogSchool;
  });
}

/** The catalog after an import: its schools replace those of the same id, or are added. */
function applied(catalog: readonly CatalogSchool[], schools: readonly CatalogSchool[]): CatalogSchool[] {
  const byId = new Map(catalog.map((s) => [s.id, s]));
  for (const s of schools) byId.set(s.id, s);
  return [...byId.values()];
}

/** The changes since the base: the last version of each school the imports wrote. */
function changesOf(...imports: readonly CatalogSchool[][]): CatalogSchool[] {
  const byId = new Map<string, CatalogSchool>();
  for (const schools of imports) for (const s of schools) byId.set(s.id, s);
  return [...byId.values()];
}

async function expectSameAsRebuild(
  base: CatalogSchool[],
  imports: readonly CatalogSchool[][],
  queries: readonly QueryCase[],
): Promise<void> {
  let delta = new MemoryIndex(buildIndex(base));
  let catalog = base;
  for (let i = 0; i < imports.length; i++) {
    catalog = applied(catalog, imports[i]!);
    delta = MemoryIndex.withChanges(delta, buildIndex(changesOf(...imports.slice(0, i + 1))));
  }
  const rebuilt = new MemoryIndex(buildIndex(catalog));
  expect(delta.size).toBe(rebuilt.size);
  for (const { words, ...scope } of queries) {
    const query = { ...scope, plan: planQuery(words.join(' ')) };
    const asked = { query: words.join(' '), ...scope };
    const expected = rebuilt.search(query);
    for (let round = 0; round < 2; round++) {
      const actual = delta.search(query);
      expect({ asked, total: actual.total, hits: actual.hits }).toStrictEqual({
        asked,
        total: expected.total,
        hits: expected.hits,
      });
    }
  }
}

const editsArb = (school: fc.Arbitrary<Drawn>, max: number) =>
  fc.array(fc.record({ slot: fc.nat({ max: 400 }), school }), { minLength: 1, maxLength: max });

function property(
  school: fc.Arbitrary<Drawn>,
  query: fc.Arbitrary<QueryCase>,
  sizes: { min: number; max: number; edits: number },
) {
  return fc.asyncProperty(
    fc.array(school, { minLength: sizes.min, maxLength: sizes.max }),
    fc.array(editsArb(school, sizes.edits), { minLength: 1, maxLength: 2 }),
    fc.array(query, { minLength: 1, maxLength: 10 }),
    async (schools, edits, queries) => {
      const base = catalogOf(schools);
      let n = 0;
      let catalog: CatalogSchool[] = base;
      const imports = edits.map((e) => {
        const schoolsOfImport = importOf(catalog, e, () => n++);
        catalog = applied(catalog, schoolsOfImport);
        return schoolsOfImport;
      });
      await expectSameAsRebuild(base, imports, queries);
    },
  );
}

describe('An index with changes applied, against a full rebuild', () => {
  test('when catalogs, imports and queries are random (300 runs), then totals, pages and scores are the same', async () => {
    await fc.assert(property(schoolArb, queryArb, { min: 1, max: 50, edits: 12 }), { numRuns: 300, seed: 20261202 });
  }, 120_000);

  test('when many schools tie on few words and pages are small and deep (150 runs), then the same', async () => {
    await fc.assert(property(denseSchoolArb, denseQueryArb, { min: 20, max: 150, edits: 30 }), {
      numRuns: 150,
      seed: 20261203,
    });
  }, 120_000);

  test('when schools have levels, types and places, and queries filter and rank near a point (300 runs), then the same', async () => {
    await fc.assert(property(placedSchoolArb, scopedQueryArb, { min: 1, max: 60, edits: 12 }), {
      numRuns: 300,
      seed: 20261204,
    });
  }, 120_000);

  test('when many schools tie on few words and places, near a point, small deep pages (150 runs), then the same', async () => {
    await fc.assert(property(densePlacedSchoolArb, denseScopedQueryArb, { min: 20, max: 150, edits: 30 }), {
      numRuns: 150,
      seed: 20261205,
    });
  }, 120_000);

  test('when many schools are named alike and the query is the name, near a point (200 runs), then the same', async () => {
    await fc.assert(property(namesakeSchoolArb, namesakeQueryArb, { min: 5, max: 80, edits: 12 }), {
      numRuns: 200,
      seed: 20261206,
    });
  }, 120_000);
});
