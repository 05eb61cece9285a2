// Random catalogs and queries for the engines' property tests (test/search/memory-property.test.ts,
// test/search/text-engine.test.ts). The vocabulary is small so that names collide, nest, differ
// by one edit, share prefixes and tie on everything but prominence, name and id. The `placed`
// schools and `scoped` queries add what filters and "near me" read (level, type, tags,
// coordinates; levels, types, near, radius), with few places, so that distances tie too.
import fc from 'fast-check';
import { LEVELS, TAGS } from '../../src/domain/catalog/school-kind.ts';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { TYPE_FILTERS, type SearchScope } from '../../src/domain/search/filters.ts';
import { distanceKm, type GeoPoint } from '../../src/domain/catalog/geo.ts';

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
  stateCode: fc.option(fc.constantFrom(...STATES), { nil: undefined }),
  offset: fc.nat(12),
  limit: fc.integer({ min: 1, max: 8 }),
});

// Many schools from few words, small pages deep into the results: where the page's early stop
// (top-k-walk.ts) must not stop before a better document.
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
  stateCode: fc.option(fc.constantFrom(...STATES), { nil: undefined }),
  offset: fc.nat(20),
  limit: fc.integer({ min: 1, max: 3 }),
});

/**
 * Catalogs above a look-up's cap with words of unequal frequency (issue 43, H1): two common
 * words few schools hold together, and rarer ones; queries of two or three of them, so that
 * soft matching must choose between words whose counts both pass the cap.
 */
const SKEWED = fc.oneof(
  { arbitrary: fc.constant('oak'), weight: 6 },
  { arbitrary: fc.constant('ridge'), weight: 4 },
  { arbitrary: fc.constant('elm'), weight: 2 },
  { arbitrary: fc.constant('zed'), weight: 1 },
  { arbitrary: fc.constant('park'), weight: 1 },
);
export const skewedSchoolArb = fc.record({
  name: fc.array(SKEWED, { minLength: 1, maxLength: 2 }).map((w) => w.join(' ')),
  city: fc.constantFrom('Salem', 'Springfield'),
  state: fc.constantFrom('OR', 'MA'),
  aliases: fc.constant([] as string[]),
  prominence: fc.integer({ min: 0, max: 1 }),
});
export const skewedQueryArb = fc.record({
  words: fc.array(SKEWED, { minLength: 2, maxLength: 3 }),
  stateCode: fc.option(fc.constantFrom('OR', 'MA'), { nil: undefined }),
  offset: fc.nat(5),
  limit: fc.integer({ min: 1, max: 5 }),
});

/**
 * Places schools are at: many share one (equal distances), some are a few metres apart (distances
 * that differ in the last metre), some are at the antimeridian, the poles or the equator's zero.
 */
const PLACES: readonly GeoPoint[] = [
  { latitude: 42.3736, longitude: -71.1097 },
  { latitude: 42.3736, longitude: -71.1097 },
  { latitude: 42.37361, longitude: -71.10971 },
  { latitude: 42.3601, longitude: -71.0942 },
  { latitude: 40.7128, longitude: -74.006 },
  { latitude: 45.5017, longitude: -73.5673 },
  { latitude: 46.7817, longitude: -71.2748 },
  { latitude: 0, longitude: 0 },
  { latitude: -0.5, longitude: 179.9 },
  { latitude: 0.5, longitude: -179.95 },
  { latitude: 89.99, longitude: 12 },
  { latitude: -90, longitude: 0 },
  { latitude: -33.8688, longitude: 151.2093 },
];

/** What a directory says of a school's kind and place; each may be unknown (then absent). */
const placedArb = fc.record({
  level: fc.option(fc.constantFrom(...LEVELS), { nil: undefined }),
  type: fc.option(
    fc.constantFrom('public', 'private', 'postsecondary') as fc.Arbitrary<'public' | 'private' | 'postsecondary'>,
    { nil: undefined },
  ),
  tags: fc.subarray(['charter', 'catholic', 'for_profit'] as const),
  place: fc.option(fc.constantFrom(...PLACES), { nil: undefined, freq: 4 }),
});

type Placed = Pick<CatalogSchool, 'level' | 'type' | 'tags' | 'latitude' | 'longitude'>;

/** Only the known fields, tags in TAGS order (as a store hands a school back). */
function placed(p: typeof placedArb extends fc.Arbitrary<infer T> ? T : never): Placed {
  const tags = TAGS.filter((t) => (p.tags as readonly string[]).includes(t));
  return {
    ...(p.level === undefined ? {} : { level: p.level }),
    ...(p.type === undefined ? {} : { type: p.type }),
    ...(tags.length === 0 ? {} : { tags }),
    ...(p.place === undefined ? {} : { latitude: p.place.latitude, longitude: p.place.longitude }),
  };
}

export const placedSchoolArb = fc.tuple(schoolArb, placedArb).map(([s, p]) => ({ ...s, ...placed(p) }));
export const densePlacedSchoolArb = fc.tuple(denseSchoolArb, placedArb).map(([s, p]) => ({ ...s, ...placed(p) }));

/** A value `weight` times in `weight + none`, otherwise undefined. */
function sometimes<T>(arb: fc.Arbitrary<T>, weight: number, none: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: arb, weight }, { arbitrary: fc.constant(undefined), weight: none });
}

/** A point to search near: a place of the catalog (distances tie), or anywhere on the globe. */
const nearArb: fc.Arbitrary<GeoPoint> = fc.oneof(
  fc.constantFrom(...PLACES),
  fc.record({
    latitude: fc.double({ min: -90, max: 90, noNaN: true }),
    longitude: fc.double({ min: -180, max: 180, noNaN: true }),
  }),
);

/**
 * levels, types, near and radius of a query, each often absent. A radius is a round figure or the
 * distance to a place, give or take half a metre (the rounding's edge); now and then one comes
 * without a point (which keeps nothing).
 */
export const scopeArb: fc.Arbitrary<Omit<SearchScope, 'stateCode'>> = fc
  .record({
    level: sometimes(fc.uniqueArray(fc.constantFrom(...LEVELS), { minLength: 1, maxLength: 3 }), 1, 3),
    type: sometimes(fc.uniqueArray(fc.constantFrom(...TYPE_FILTERS), { minLength: 1, maxLength: 2 }), 1, 3),
    near: sometimes(nearArb, 3, 2),
    radius: sometimes(
      fc.oneof(
        fc.constantFrom(0.001, 1, 25, 300, 1000, 5000, 20015),
        fc
          .tuple(fc.constantFrom(...PLACES), fc.constantFrom(0, 0.0005, -0.0005, 0.0004, 0.001))
          .map(([place, delta]) => ({ place, delta })),
      ),
      1,
      2,
    ),
    radiusWithoutNear: fc.boolean(),
  })
  .map(({ level, type, near, radius, radiusWithoutNear }) => {
    const point = near ?? (radiusWithoutNear ? undefined : PLACES[0]);
    const radiusKm =
      radius === undefined
        ? undefined
        : typeof radius === 'number'
          ? radius
          : point === undefined
            ? 1
            : Math.max(0.0001, distanceKm(point, radius.place) + radius.delta);
    const scope: { level?: typeof level; type?: typeof type; near?: GeoPoint; radiusKm?: number } = {};
    if (level !== undefined) scope.level = level;
    if (type !== undefined) scope.type = type;
    if (radiusKm !== undefined) scope.radiusKm = radiusKm;
    if (point !== undefined && (near !== undefined || radiusKm !== undefined)) scope.near = point;
    return scope;
  });

export const scopedQueryArb = fc.tuple(queryArb, scopeArb).map(([q, scope]) => ({ ...q, ...scope }));
/** Half of them on the first page, where the schools the query names (equality) are. */
export const denseScopedQueryArb = fc
  .tuple(denseQueryArb, scopeArb, fc.boolean())
  .map(([q, scope, first]) => ({ ...q, ...scope, offset: first ? 0 : q.offset }));

// Namesakes: few names, said whole (the query is the name: equality), near points where many of
// them are; the nearest first among those named alike.
// Equivalent spellings of one name too (Elem., St., a leading "The", another word order, the
// article last): the query that spells one of them exactly puts it first (ranking-rules.ts, step 7).
const NAMESAKES = [
  'lincoln elementary',
  'lincoln elementary school',
  'Lincoln Elem.',
  'The Lincoln Elementary',
  'Elementary of Lincoln',
  'Lincoln Elementary, The',
  "Mary, l'",
  'saint mary',
  'st mary',
  'lincoln',
  'mary',
];
export const namesakeSchoolArb = fc
  .tuple(
    fc.record({
      name: fc.constantFrom(...NAMESAKES),
      city: fc.constantFrom('Lincoln', 'Springfield'),
      state: fc.constantFrom(...STATES),
      aliases: fc.array(fc.constantFrom(...NAMESAKES), { maxLength: 1 }),
      prominence: fc.integer({ min: 0, max: 1 }),
    }),
    placedArb,
  )
  .map(([s, p]) => ({ ...s, ...placed(p) }));
export const namesakeQueryArb = fc
  .tuple(
    fc.record({
      words: fc
        .constantFrom(
          ...NAMESAKES,
          'lincoln el',
          'st marys',
          'linc',
          'the lincoln elementary school',
          "l'mary",
          'the linc',
          'the lincoln el',
        )
        .map((q) => q.toLowerCase().replace('.', '').replace(',', '').split(' ')),
      stateCode: fc.option(fc.constantFrom(...STATES), { nil: undefined, freq: 3 }),
      offset: fc.oneof(fc.constant(0), fc.nat(6)),
      limit: fc.integer({ min: 1, max: 4 }),
    }),
    scopeArb,
  )
  .map(([q, scope]) => ({ ...q, ...scope }));

/** A query the arbitraries draw: its words, its scope and its page. */
export interface QueryCase extends Omit<SearchScope, 'stateCode'> {
  readonly words: string[];
  readonly stateCode: string | undefined;
  readonly offset: number;
  readonly limit: number;
}

export function catalogOf(schools: Omit<CatalogSchool, 'id' | 'imageUrl'>[]): CatalogSchool[] {
  return schools.map((s, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    imageUrl: null,
    ...s,
  }));
}
