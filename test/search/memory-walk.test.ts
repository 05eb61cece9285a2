// How far the in-process index walks to find a page: it stops once no document left can beat the
// page (memory-index.ts, #top), whatever the number of matches. Counted in documents graded
// (MemoryIndex.graded), the walk's work; the answers are the reference engine's.
import { describe, expect, test } from 'vitest';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { buildIndex } from '../../src/search/memory/build.ts';
import { MemoryIndex } from '../../src/search/memory/memory-index.ts';
import { ReferenceEngine } from '../../src/search/reference.engine.ts';

const STATES = ['TX', 'CA', 'NY'];
const PEOPLE = ['Lincoln', 'Washington', 'Jefferson', 'Roosevelt', 'Adams', 'Madison', 'Monroe', 'Grant'];

function school(i: number, name: string, prominence = 0): CatalogSchool {
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name,
    city: 'Springfield',
    state: STATES[i % STATES.length]!,
    imageUrl: null,
    aliases: [],
    prominence,
  };
}

/**
 * 3,000 schools named "… School", and two whose name starts with `schol` (Scholars), last in
 * the static order: a typo of "school" matches them all, the two with a start of a word.
 */
const CATALOG = [
  ...Array.from({ length: 3_000 }, (_, i) =>
    school(i, `${PEOPLE[i % PEOPLE.length]} ${['Elementary', 'Middle', 'High'][i % 3]} School ${i}`, 10),
  ),
  school(3_000, 'Scholars Academy'),
  school(3_001, 'Scholastic Preparatory Academy'),
];

describe('the walk to a page', () => {
  const index = new MemoryIndex(buildIndex(CATALOG), { keptAnswers: 0 });
  const reference = new ReferenceEngine(CATALOG);

  test.each([
    ['schol', undefined, 0],
    ['schol', 'TX', 0],
    ['schol', undefined, 50],
    ['schooll', undefined, 0],
  ])(
    'when %s (state %s, offset %i) is a typo of a word most schools have and the start of a word few have, then the page is found grading a few documents, not every match',
    async (text, state, offset) => {
      const query = { plan: planQuery(text), state, offset, limit: 25 };
      const before = index.graded;
      const page = index.search(query);
      expect(page).toStrictEqual(await reference.search(query));
      expect(page.total).toBeGreaterThan(300);
      expect(index.graded - before).toBeLessThanOrEqual(3 * (offset + 25) + 10);
    },
  );
});
