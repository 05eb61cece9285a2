// The MongoDB pipelines (MONGODB_SEARCH=text) by example: matching, filtering, ordering, totals
// and paging, and what an upsert changes. Their semantics are older than the search core's
// (src/stores/mongodb/texts.ts).
import { describe, expect, test } from 'vitest';
import type { SchoolDraft } from '../../../src/domain/ports.ts';
import type { PipelineQuery } from '../../../src/stores/mongodb/search.pipeline.ts';
import { coveredLength, queryTerms } from '../../../src/stores/mongodb/texts.ts';
import { school, stored } from '../contract/builders.ts';
import type { PipelineFixture } from './pipeline.target.ts';
import { reference } from './pipeline.reference.ts';

/** The query the pipeline engine makes of what a user typed. */
function query(text: string, more: Partial<PipelineQuery> = {}): PipelineQuery {
  const terms = queryTerms(text);
  return { terms, coveredLength: coveredLength(terms), offset: 0, limit: 10, ...more };
}

function hit(d: SchoolDraft, matchedLength: number) {
  return { ...stored(d), matchedLength };
}

const NONE = { total: 0, hits: [] };

export function pipelineExamples(fixture: () => PipelineFixture): void {
  describe('the $text pipeline', () => {
    test('when a term is a word prefix, then it matches the words it starts, not words it is inside', async () => {
      const { store, search } = fixture();
      const harvard = school('Harvard University');
      const howard = school('Howard University');
      const harvey = school('Harvey Mudd College', { city: 'Claremont', stateprovince: 'CA' });
      await store.schools.upsertMany([howard, harvey, harvard]);
      // Both 17 letters long: the sort key decides.
      expect(await search(query('harv'))).toStrictEqual({ total: 2, hits: [hit(harvard, 17), hit(harvey, 17)] });
      expect(await search(query('univ harv'))).toStrictEqual({ total: 1, hits: [hit(harvard, 17)] });
      expect(await search(query('vard'))).toStrictEqual(NONE);
    });

    test('when a term has one letter, then it matches only that whole word', async () => {
      const { store, search } = fixture();
      const texas = school('Texas A & M University', { city: 'College Station', stateprovince: 'TX' });
      const alabama = school('Alabama A & M University', { city: 'Normal', stateprovince: 'AL' });
      const amherst = school('Amherst College', { city: 'Amherst' });
      const holyoke = school('Mount Holyoke College', { city: 'South Hadley' });
      await store.schools.upsertMany([amherst, holyoke, alabama, texas]);
      const aAndM = { total: 2, hits: [hit(texas, 17), hit(alabama, 19)] };
      expect(await search(query('a'))).toStrictEqual(aAndM);
      expect(await search(query('m'))).toStrictEqual(aAndM);
      // Two letters are a prefix again.
      expect(await search(query('am'))).toStrictEqual({ total: 1, hits: [hit(amherst, 14)] });
    });

    test('when terms match different texts of a school (name and alias), then it is not found; within one text it is, scored by the shortest', async () => {
      const { store, search } = fixture();
      const mit = school('Massachusetts Institute of Technology', { city: 'Cambridge', aliases: ['MIT'] });
      const wpi = school('Worcester Polytechnic Institute', { city: 'Worcester', aliases: ['WPI Institute'] });
      await store.schools.upsertMany([mit, wpi]);
      expect(await search(query('mit technology'))).toStrictEqual(NONE);
      expect(await search(query('mit'))).toStrictEqual({ total: 1, hits: [hit(mit, 3)] });
      expect(await search(query('massachusetts technology'))).toStrictEqual({ total: 1, hits: [hit(mit, 34)] });
      // "institute" is in both of WPI's texts: the alias (12) is shorter than the name (29).
      expect(await search(query('institute'))).toStrictEqual({ total: 2, hits: [hit(wpi, 12), hit(mit, 34)] });
      expect(await search(query('polytechnic'))).toStrictEqual({ total: 1, hits: [hit(wpi, 29)] });
    });

    test('when a state is given, then only schools of that state match and the total counts only them', async () => {
      const { store, search } = fixture();
      const boston = school('Boston College', { city: 'Chestnut Hill' });
      const babson = school('Babson College', { city: 'Wellesley' });
      const albany = school('Albany College', { city: 'Albany', stateprovince: 'NY' });
      await store.schools.upsertMany([boston, albany, babson]);
      expect(await search(query('college', { state: 'MA' }))).toStrictEqual({ total: 2, hits: [hit(babson, 13), hit(boston, 13)] });
      expect(await search(query('college', { state: 'NY' }))).toStrictEqual({ total: 1, hits: [hit(albany, 13)] });
      expect(await search(query('college', { state: 'TX' }))).toStrictEqual(NONE);
      expect(await search(query('college'))).toStrictEqual({ total: 3, hits: [hit(albany, 13), hit(babson, 13), hit(boston, 13)] });
    });

    test('when scores differ or tie, then hits are ordered by matched length, then sort key, then id', async () => {
      const { store, search } = fixture();
      const zu = school('Zu College');
      const ace = school('Ace College');
      const art = school('Art College');
      // The same name twice (two cities): only the id orders them.
      const [bay1, bay2] = [school('Bay College', { city: 'Springfield' }), school('Bay College', { city: 'Shelbyville' })].sort((x, y) =>
        x.id < y.id ? -1 : 1,
      );
      const community = school('Community College of Art');
      await store.schools.upsertMany([community, bay2!, art, zu, bay1!, ace]);
      expect(await search(query('college'))).toStrictEqual({
        total: 6,
        hits: [hit(zu, 9), hit(ace, 10), hit(art, 10), hit(bay1!, 10), hit(bay2!, 10), hit(community, 21)],
      });
    });

    test('when texts are shorter than the letters the terms cover, then they tie with texts of exactly that length', async () => {
      const { store, search } = fixture();
      // "saint marys" covers 10 letters: "St Mary's" (7, via the synonym) scores like "Saint Marys" (10).
      // Its alias matches too, but the name is the shorter text: matchedLength is 7, not 10.
      const stMarys = school("St Mary's", { aliases: ['Saint Marys'] });
      // This key gives Saint Marys an id after St Mary's: only the sort key puts it first.
      const saintMarys = school('Saint Marys', { key: 'test:saint-marys-2' });
      expect(saintMarys.id > stMarys.id).toBe(true);
      const academy = school('Saint Marys Academy');
      await store.schools.upsertMany([academy, stMarys, saintMarys]);
      expect(await search(query('saint marys'))).toStrictEqual({
        total: 3,
        hits: [hit(saintMarys, 10), hit(stMarys, 7), hit(academy, 17)],
      });
    });

    test('when paged through, then pages join to the whole ordered result without repeats, and past the end is empty with the total', async () => {
      const { store, search } = fixture();
      const trees = ['Oak', 'Elm', 'Pine', 'Birch', 'Cedar', 'Maple', 'Ash', 'Willow', 'Spruce', 'Fir'];
      const drafts = trees.flatMap((t) => [school(`${t} Academy`), school(`${t} Hill Academy`)]);
      await store.schools.upsertMany(drafts);
      const q = query('academy');
      const expected = reference(drafts, q.terms, undefined).map((r) => r.id);
      const pages = [];
      for (let offset = 0; offset < 20; offset += 3) pages.push(await search({ ...q, offset, limit: 3 }));
      expect(pages.map((p) => p.total)).toStrictEqual([20, 20, 20, 20, 20, 20, 20]);
      expect(pages.map((p) => p.hits.length)).toStrictEqual([3, 3, 3, 3, 3, 3, 2]);
      expect(pages.flatMap((p) => p.hits.map((h) => h.id))).toStrictEqual(expected);
      expect(new Set(expected).size).toBe(20);
      expect(await search({ ...q, offset: 20, limit: 3 })).toStrictEqual({ total: 20, hits: [] });
      expect(await search({ ...q, offset: 35, limit: 3 })).toStrictEqual({ total: 20, hits: [] });
    });

    test('when schools are added or renamed between searches, then the total of a partial page follows', async () => {
      const { store, search } = fixture();
      const drafts = ['Oak', 'Elm', 'Pine', 'Birch', 'Cedar'].map((t) => school(`${t} Academy`));
      await store.schools.upsertMany(drafts);
      // limit 2 of 5: the total cannot come from the page itself.
      const q = query('academy', { limit: 2 });
      expect((await search(q)).total).toBe(5);
      await store.schools.upsertMany([school('Ash Academy')]);
      expect((await search(q)).total).toBe(6);
      await store.schools.upsertMany([school('Oak Institute', { key: `test:Oak Academy|Springfield|MA` })]);
      expect((await search(q)).total).toBe(5);
    });

    test('when a school is renamed by an upsert, then the new name finds it and the old one does not', async () => {
      const { store, search } = fixture();
      const old = school('Old Mill Academy', { key: 'test:renamed' });
      const renamed = school('New Harbor Academy', { key: 'test:renamed' });
      await store.schools.upsertMany([old, school('Other Place')]);
      expect(await search(query('mill'))).toStrictEqual({ total: 1, hits: [hit(old, 14)] });
      expect(await store.schools.upsertMany([renamed])).toStrictEqual({ inserted: 0, updated: 1, unchanged: 0 });
      expect(await search(query('mill'))).toStrictEqual(NONE);
      expect(await search(query('harbor'))).toStrictEqual({ total: 1, hits: [hit(renamed, 16)] });
    });

    test('when only the city or the state of a school changes, then hits show the new city and the state filter the new state', async () => {
      const { store, search } = fixture();
      const rice = school('Rice University', { city: 'Houston', stateprovince: 'TX' });
      await store.schools.upsertMany([rice]);
      const moved = { ...rice, city: 'Austin' };
      await store.schools.upsertMany([moved]);
      expect(await search(query('rice'))).toStrictEqual({ total: 1, hits: [hit(moved, 14)] });
      const otherState = { ...moved, state: 'LA' };
      await store.schools.upsertMany([otherState]);
      expect(await search(query('rice', { state: 'TX' }))).toStrictEqual(NONE);
      expect(await search(query('rice', { state: 'LA' }))).toStrictEqual({ total: 1, hits: [hit(otherState, 14)] });
    });

    test('when no school matches every term, then the total is 0 and there are no hits', async () => {
      const { store, search } = fixture();
      expect(await search(query('harvard'))).toStrictEqual(NONE);
      await store.schools.upsertMany([school('Harvard University'), school('Yale University', { stateprovince: 'CT' })]);
      expect(await search(query('zzz'))).toStrictEqual(NONE);
      expect(await search(query('harvard yale'))).toStrictEqual(NONE);
    });
  });
}
