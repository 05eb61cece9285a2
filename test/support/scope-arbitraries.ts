// Random catalogs and queries with a scope (src/domain/search/filters.ts): schools with levels,
// types, tags and coordinates, queries with levels, types, `near` and `radius_km`, for the
// MongoDB engines' property tests (test/search/text-engine.test.ts, atlas-engine.test.ts). The
// points are few, so that distances tie; the radii include the exact distances between them
// (the radius keeps a school exactly as far), one metre less, and the half circumference.
import fc from 'fast-check';
import { distanceKm, type GeoPoint } from '../../src/domain/catalog/geo.ts';
import { TYPE_FILTERS } from '../../src/domain/search/filters.ts';
import { LEVELS, SCHOOL_TYPES } from '../../src/domain/catalog/school-kind.ts';
import { queryArb, schoolArb } from './search-arbitraries.ts';

/** Montréal twice (a tie), a street away, Québec, New York, Sydney, both sides of the antimeridian, near a pole. */
export const POINTS: readonly GeoPoint[] = [
  { latitude: 45.5017, longitude: -73.5673 },
  { latitude: 45.5017, longitude: -73.5673 },
  { latitude: 45.5089, longitude: -73.554 },
  { latitude: 46.8139, longitude: -71.208 },
  { latitude: 40.7128, longitude: -74.006 },
  { latitude: -33.8688, longitude: 151.2093 },
  { latitude: 0.5, longitude: 179.9 },
  { latitude: -0.5, longitude: -179.9 },
  { latitude: 89.9, longitude: 12 },
];
const NEARS: readonly GeoPoint[] = [...POINTS.slice(2, 6), { latitude: 45.5, longitude: -73.6 }, POINTS[6]!];

const RADII = [
  ...new Set(
    NEARS.flatMap((n) => POINTS.map((p) => distanceKm(n, p)))
      .filter((km) => km > 0.001)
      .flatMap((km) => [km, Math.round((km - 0.001) * 1000) / 1000]),
  ),
  0.5,
  300,
  20015,
];

const coordinatesArb = fc.option(fc.constantFrom(...POINTS), { nil: undefined, freq: 4 });

export const scopedSchoolArb = fc
  .record({
    base: schoolArb,
    level: fc.option(fc.constantFrom(...LEVELS), { nil: undefined }),
    type: fc.option(fc.constantFrom(...SCHOOL_TYPES), { nil: undefined }),
    charter: fc.boolean(),
    at: coordinatesArb,
  })
  .map(({ base, level, type, charter, at }) => ({
    ...base,
    ...(level ? { level } : {}),
    ...(type ? { type } : {}),
    ...(charter ? { tags: ['charter' as const] } : {}),
    ...(at ? { latitude: at.latitude, longitude: at.longitude } : {}),
  }));

export const scopedQueryArb = fc
  .record({
    base: queryArb,
    level: fc.option(fc.subarray([...LEVELS], { minLength: 1 }), { nil: undefined, freq: 2 }),
    type: fc.option(fc.subarray([...TYPE_FILTERS], { minLength: 1 }), { nil: undefined, freq: 2 }),
    near: fc.option(fc.constantFrom(...NEARS), { nil: undefined, freq: 2 }),
    radiusKm: fc.option(fc.constantFrom(...RADII), { nil: undefined }),
  })
  .map(({ base, level, type, near, radiusKm }) => ({
    ...base,
    level,
    type,
    near,
    radiusKm: near === undefined ? undefined : radiusKm,
  }));
