// The walk to a page on its own (src/search/memory/top-k-walk.ts): given a query's matches, it
// returns the page that grading every match and sorting would, grading only a few of them, and
// the bounds it stops by hold for every match.
import { describe, expect, test } from 'vitest';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import type { GeoPoint } from '../../src/domain/catalog/geo.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { Kind } from '../../src/domain/search/ranking-rules.ts';
import { has, popcount } from '../../src/search/memory/bitset.ts';
import { buildIndex } from '../../src/search/memory/build.ts';
import { Expander } from '../../src/search/memory/expansion.ts';
import { docDistance } from '../../src/search/memory/geo-grid.ts';
import { Grader } from '../../src/search/memory/grading.ts';
import { gradeBounds, TopKWalk } from '../../src/search/memory/top-k-walk.ts';
import { WordSets } from '../../src/search/memory/word-sets.ts';

const PEOPLE = ['Lincoln', 'Washington', 'Jefferson', 'Roosevelt'];

function school(i: number, name: string, prominence: number): CatalogSchool {
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name,
    city: 'Springfield',
    state: 'TX',
    imageUrl: null,
    aliases: [],
    prominence,
    // A few places, so that distances tie too.
    latitude: 40 + (i % 7) * 0.1,
    longitude: -74 + (i % 5) * 0.1,
  };
}

/**
 * 2,000 schools named "… School" and two whose name starts with `schol`, last in the static
 * order: `schol` is a typo of a word every school has and the start of a word two have.
 */
const CATALOG = [
  ...Array.from({ length: 2_000 }, (_, i) => school(i, `${PEOPLE[i % PEOPLE.length]} School ${i}`, 10)),
  school(2_000, 'Scholars Academy', 0),
  school(2_001, 'Scholastic Preparatory Academy', 0),
];

describe('TopKWalk', () => {
  const data = buildIndex(CATALOG);
  const sets = new WordSets(data);
  const grader = new Grader(data);
  const walk = new TopKWalk(data, sets, grader);
  const expansions = planQuery('schol').words.map((w) => new Expander(data).expand(w));
  const sequence = [0];
  const matches = sets.atLeast(expansions[0]!, Kind.Typo);
  const docs = Array.from({ length: data.docCount }, (_, doc) => doc).filter((doc) => has(matches, doc));

  /** The page by grading every match: grade, then distance (unknown last), then number. */
  const everyMatch = (need: number, near: GeoPoint | undefined) =>
    docs
      .map((doc) => ({
        doc,
        key: grader.grade(doc, expansions, sequence),
        distance: near === undefined ? Infinity : (docDistance(data, doc, near) ?? Infinity),
      }))
      .sort((a, b) => b.key - a.key || a.distance - b.distance || a.doc - b.doc)
      .slice(0, need)
      .map(({ doc, key }) => ({ doc, key }));

  test.each([
    [25, undefined],
    [3, undefined],
    [25, { latitude: 40.2, longitude: -73.8 }],
  ])(
    'when %i of the matches of a typo and a rare start are asked for (near %o), then the page is that of grading every match, found grading a few',
    (need, near) => {
      grader.mark(expansions);
      try {
        expect(popcount(matches)).toBe(2_002);
        const expected = everyMatch(need, near);
        const before = grader.graded;
        const page = walk.top(need, { matches, skip: new Set(), expansions, sequence, near });
        const graded = grader.graded - before;
        expect(page).toStrictEqual(expected);
        // The two that start with `schol` first, then the page of typos: a few groups, not 2,002 matches.
        expect(
          page
            .slice(0, 2)
            .map((r) => data.order[r.doc]!)
            .sort(),
        ).toStrictEqual([2_000, 2_001]);
        // Only the page is graded; near a point, also the documents that tie its worst grade and are nearer.
        expect(graded).toBeLessThanOrEqual(near === undefined ? need : 150);
      } finally {
        grader.unmark(expansions);
      }
    },
  );

  test('when a word has better and worse matches, then no match grades above the top bound, nor one without the better match above the bound outside', () => {
    grader.mark(expansions);
    try {
      const { top, outside, splits } = gradeBounds(expansions);
      expect(splits).toStrictEqual([{ word: 0, from: Kind.Prefix, below: Kind.Typo }]);
      // What lets the walk stop early: a match with a typo only grades below one with a start.
      expect(outside).toBeLessThan(top);
      const better = sets.atLeast(expansions[0]!, Kind.Prefix);
      for (const doc of docs) {
        const key = grader.grade(doc, expansions, sequence);
        expect(key).toBeLessThanOrEqual(top);
        if (!has(better, doc)) expect(key).toBeLessThanOrEqual(outside);
      }
    } finally {
      grader.unmark(expansions);
    }
  });
});
