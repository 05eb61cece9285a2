// The embedded store's search against a brute-force reference, on random catalogs and queries:
// the same matches, the same total, the same order, page by page. The store streams matches in
// a precomputed order with special cases (short names, aliases, state filter, count cache);
// the reference simply filters and sorts everything.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SchoolDraft } from '../../src/domain/ports.ts';
import { draftSchool } from '../../src/domain/school.draft.ts';
import { coveredLength, queryTerms } from '../../src/domain/search.service.ts';
import { SqliteStore } from '../../src/stores/sqlite/store.ts';

// A small vocabulary, so that names collide, tie and nest often.
const WORDS = ['saint', 'st', 'mary', "mary's", 'marys', 'school', 'schools', 'a', 'm', 'école', 'ecole', 'u'];
const STATES = ['MA', 'QC', 'TX'];

const nameArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
const schoolArb = fc.record({
  schoolname: nameArb,
  state: fc.constantFrom(...STATES),
  aliases: fc.array(nameArb, { maxLength: 2 }),
});
const queryArb = fc.record({
  words: fc.array(fc.constantFrom(...WORDS, 'sch', 'mar', 'z'), { minLength: 1, maxLength: 3 }),
  state: fc.option(fc.constantFrom(...STATES), { nil: undefined }),
  offset: fc.nat(12),
  limit: fc.integer({ min: 1, max: 6 }),
});

function utf8Compare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** What the contract promises, computed the slow way. */
function reference(drafts: readonly SchoolDraft[], terms: string[], state: string | undefined) {
  const covered = coveredLength(terms);
  const matchesText = (textTerms: readonly string[]) =>
    terms.every((t) => textTerms.some((w) => (t.length === 1 ? w === t : w.startsWith(t))));
  return drafts
    .filter((d) => state === undefined || d.state === state)
    .flatMap((d) => {
      const lengths = d.searchTexts.filter((t) => matchesText(t.terms)).map((t) => t.length);
      return lengths.length ? [{ id: d.id, sortKey: d.sortKey, length: Math.min(...lengths) }] : [];
    })
    .sort(
      (x, y) =>
        Math.max(x.length, covered) - Math.max(y.length, covered) || utf8Compare(x.sortKey, y.sortKey) || utf8Compare(x.id, y.id),
    );
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'school-search-property-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let stores = 0;

describe('SqliteSchoolStore.search against a reference', () => {
  test('when catalogs and queries are random, then every page equals the reference slice', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(schoolArb, { minLength: 1, maxLength: 40 }), fc.array(queryArb, { minLength: 1, maxLength: 8 }), async (schools, queries) => {
        const store = await SqliteStore.open({ path: join(dir, `store-${++stores}.db`) });
        try {
          const drafts = schools.flatMap((s, i) => {
            const r = draftSchool({ schoolname: s.schoolname, city: 'City', stateprovince: s.state, aliases: s.aliases, sourceKey: `p:${i}` });
            return r.ok ? [r.draft] : [];
          });
          await store.schools.upsertMany(drafts);
          for (const q of queries) {
            const terms = queryTerms(q.words.join(' '));
            const expected = reference(drafts, terms, q.state);
            // Twice: the second answer may come from the count cache.
            for (let round = 0; round < 2; round++) {
              const page = await store.schools.search({
                terms,
                coveredLength: coveredLength(terms),
                state: q.state,
                offset: q.offset,
                limit: q.limit,
              });
              expect(page.total).toBe(expected.length);
              expect(page.hits.map((h) => [h.id, h.matchedLength])).toEqual(
                expected.slice(q.offset, q.offset + q.limit).map((e) => [e.id, e.length]),
              );
            }
          }
        } finally {
          await store.close();
        }
      }),
      { numRuns: 300, seed: 20261121 },
    );
  });
});
