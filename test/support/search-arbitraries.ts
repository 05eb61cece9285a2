// Random catalogs and queries for the engines' property tests (test/search/memory.property.test.ts,
// test/stores/text-engine.test.ts). The vocabulary is small so that names collide, nest, differ
// by one edit, share prefixes and tie on everything but prominence, name and id.
import fc from 'fast-check';
import type { CatalogSchool } from '../../src/domain/search/engine.ts';

const WORDS = [
  'saint',
  'st',
  'mary',
  "mary's",
  'marys',
  'school',
  'schools',
  'schol',
  'a',
  'm',
  'a&m',
  'école',
  'ecole',
  'university',
  'universty',
  'univ',
  'college',
  'colege',
  'community',
  'cc',
  'high',
  'hs',
  'the',
  'of',
  'wilkes-barre',
  'college-lincoln',
  'at',
  'notre',
  'montréal',
  'montreal',
  'lincoln',
  'linclon',
  'queens',
  "queen's",
  'u',
  'université',
  'universidad',
  'penn',
  'pennsylvania',
];
const CITIES = ['Montréal', 'Saint-Laurent', 'Lincoln', 'Springfield', 'Wilkes-Barre'];
const STATES = ['MA', 'QC', 'TX'];

const nameArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
export const schoolArb = fc.record({
  name: nameArb,
  city: fc.constantFrom(...CITIES),
  state: fc.constantFrom(...STATES),
  aliases: fc.array(nameArb, { maxLength: 2 }),
  prominence: fc.integer({ min: 0, max: 2 }),
});
/** A word of the vocabulary, or a start of one, or one with a letter changed, dropped or swapped. */
const queryWordArb = fc.oneof(
  fc.constantFrom(
    ...WORDS,
    'sch',
    'mar',
    'z',
    'uni',
    'montr',
    'schoo',
    'colleg',
    'lincol',
    'xyzzy',
    'l',
    'q',
    'pe',
    'un',
    'st',
    'unon',
    'pen',
  ),
  fc
    .tuple(
      fc.constantFrom(...WORDS.filter((w) => w.length >= 5)),
      fc.nat(),
      fc.constantFrom('sub', 'del', 'swap', 'ins'),
    )
    .map(([w, at, op]) => {
      const i = at % (w.length - 1);
      if (op === 'sub') return `${w.slice(0, i)}x${w.slice(i + 1)}`;
      if (op === 'del') return w.slice(0, i) + w.slice(i + 1);
      if (op === 'ins') return `${w.slice(0, i)}e${w.slice(i)}`;
      return w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
    }),
);
export const queryArb = fc.record({
  words: fc.array(queryWordArb, { minLength: 1, maxLength: 4 }),
  state: fc.option(fc.constantFrom(...STATES), { nil: undefined }),
  offset: fc.nat(12),
  limit: fc.integer({ min: 1, max: 8 }),
});

// Many schools from few words, small pages deep into the results: where the page's early stop
// (memory.index.ts, #top) must not stop before a better document.
const FEW = ['saint', 'st', 'sainte', 'mary', 'marys', 'school', 'schools', 'college', 'colleges', 's'];
export const denseSchoolArb = fc.record({
  name: fc.array(fc.constantFrom(...FEW), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
  city: fc.constantFrom('Saint Mary', 'Springfield', 'Schoolcraft'),
  state: fc.constantFrom(...STATES),
  aliases: fc.array(
    fc.array(fc.constantFrom(...FEW), { minLength: 1, maxLength: 2 }).map((w) => w.join(' ')),
    { maxLength: 1 },
  ),
  prominence: fc.integer({ min: 0, max: 1 }),
});
export const denseQueryArb = fc.record({
  words: fc.array(fc.constantFrom(...FEW, 'sa', 'sch', 'col', 'mar'), { minLength: 1, maxLength: 2 }),
  state: fc.option(fc.constantFrom(...STATES), { nil: undefined }),
  offset: fc.nat(20),
  limit: fc.integer({ min: 1, max: 3 }),
});

export function catalogOf(schools: Omit<CatalogSchool, 'id' | 'imageUrl'>[]): CatalogSchool[] {
  return schools.map((s, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    imageUrl: null,
    ...s,
  }));
}
