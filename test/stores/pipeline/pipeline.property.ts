// The MongoDB $text pipeline against a brute-force reference, on random catalogs and queries:
// the same matches, the same total, the same order, page by page.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { draftSchool } from '../../../src/domain/school.draft.ts';
import { coveredLength, queryTerms } from '../../../src/stores/mongodb/texts.ts';
import { reference } from './pipeline.reference.ts';
import type { PipelineTarget } from './pipeline.target.ts';

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

const SEED = 20261121;
/** Few enough for a network store: every run makes and drops a database. */
const RUNS = 60;

/** Takes no fixture getter: each run needs a database of its own, made here. */
export function pipelineProperty(target: PipelineTarget): void {
  describe('the $text pipeline against a reference', () => {
    test(
      `when catalogs and queries are random (${RUNS} runs), then every page equals the reference slice`,
      async () => {
        await fc.assert(
          fc.asyncProperty(fc.array(schoolArb, { minLength: 1, maxLength: 40 }), fc.array(queryArb, { minLength: 1, maxLength: 8 }), async (schools, queries) => {
            const fixture = await target.create();
            try {
              const { store, search } = fixture;
              const drafts = schools.flatMap((s, i) => {
                const r = draftSchool({ schoolname: s.schoolname, city: 'City', stateprovince: s.state, aliases: s.aliases, sourceKey: `p:${i}` });
                return r.ok ? [r.draft] : [];
              });
              await store.schools.upsertMany(drafts);
              for (const q of queries) {
                const terms = queryTerms(q.words.join(' '));
                const expected = reference(drafts, terms, q.state);
                const page = await search({ terms, coveredLength: coveredLength(terms), state: q.state, offset: q.offset, limit: q.limit });
                expect(page.total).toBe(expected.length);
                expect(page.hits.map((h) => [h.id, h.matchedLength])).toEqual(expected.slice(q.offset, q.offset + q.limit).map((e) => [e.id, e.length]));
              }
            } finally {
              await fixture.dispose();
            }
          }),
          { numRuns: RUNS, seed: SEED },
        );
      },
      // Each run makes a database; a network store takes far longer than the default timeout.
      180_000,
    );
  });
}
