// The index's radius (geo-grid.ts) against the rule it implements (filters.ts, inScope): on
// thousands of points around a few centres, at the antimeridian and the poles, every radius keeps
// exactly the schools whose distance_km is at most the radius, in cells it takes whole, leaves,
// or measures point by point.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { inScope } from '../../src/domain/search/filters.ts';
import { distanceKm, type GeoPoint } from '../../src/domain/catalog/geo.ts';
import { has, wordsFor } from '../../src/search/memory/bitset.ts';
import { buildIndex } from '../../src/search/memory/build.ts';
import { GeoBox, withinRadius } from '../../src/search/memory/geo-grid.ts';

const CENTRES: readonly GeoPoint[] = [
  { latitude: 40.7128, longitude: -74.006 },
  { latitude: 0, longitude: 179.99 },
  { latitude: 0, longitude: -179.99 },
  { latitude: 89.9, longitude: 0 },
  { latitude: -89.95, longitude: 120 },
  { latitude: 64.8, longitude: -147.7 },
];

/** 4,000 points: most within a few hundred km of a centre, some anywhere. */
function catalog(seed: number): CatalogSchool[] {
  const points = fc.sample(
    fc.oneof(
      fc
        .tuple(
          fc.constantFrom(...CENTRES),
          fc.double({ min: -3, max: 3, noNaN: true }),
          fc.double({ min: -3, max: 3, noNaN: true }),
        )
        .map(([c, dLat, dLon]) => ({
          latitude: Math.max(-90, Math.min(90, c.latitude + dLat)),
          longitude: ((c.longitude + dLon + 540) % 360) - 180,
        })),
      fc.record({
        latitude: fc.double({ min: -90, max: 90, noNaN: true }),
        longitude: fc.double({ min: -180, max: 180, noNaN: true }),
      }),
    ),
    { numRuns: 4000, seed },
  );
  return points.map((p, i) => ({
    id: `s${i}`,
    name: `School ${i}`,
    city: 'Town',
    state: 'MA',
    imageUrl: null,
    aliases: [],
    prominence: 0,
    // Every tenth without coordinates.
    ...(i % 10 === 0 ? {} : p),
  }));
}

describe('the index radius', () => {
  test('when radii are drawn around points near the schools (400 runs), then it keeps exactly the schools within them', () => {
    const schools = catalog(7);
    const data = buildIndex(schools);
    const byId = new Map(schools.map((s) => [s.id, s]));
    // The index's documents are in its static order: doc → school.
    const text = new TextDecoder();
    const idOf = (doc: number) => {
      const at = data.order[doc]! * 6;
      return text.decode(data.text.subarray(data.textStart[at]!, data.textStart[at + 1]!));
    };
    const out = new Uint32Array(wordsFor(data.docCount));
    const box = new GeoBox();
    fc.assert(
      fc.property(
        fc.constantFrom(...CENTRES),
        fc.double({ min: -2, max: 2, noNaN: true }),
        fc.oneof(
          fc.constantFrom(0.001, 1, 10, 25, 100, 333, 1000, 5000, 19_990, 20_015),
          fc.double({ min: 0.001, max: 20_015, noNaN: true }),
          // The distance to a school itself, give or take half a metre: the rounding's edge.
          fc
            .tuple(fc.nat(schools.length - 1), fc.constantFrom(0, 0.0005, -0.0005, 0.0004, -0.0004))
            .map(([i, delta]) => ({ i, delta })),
        ),
        (centre, shift, r) => {
          const near = { latitude: Math.max(-90, Math.min(90, centre.latitude + shift)), longitude: centre.longitude };
          let radiusKm: number;
          if (typeof r === 'number') radiusKm = r;
          else {
            const s = schools[r.i]!;
            radiusKm =
              s.latitude === undefined
                ? 1
                : Math.max(0.001, distanceKm(near, { latitude: s.latitude, longitude: s.longitude! }) + r.delta);
          }
          withinRadius(data, near, radiusKm, out, box);
          const kept: string[] = [];
          const wanted: string[] = [];
          for (let doc = 0; doc < data.docCount; doc++) {
            const id = idOf(doc);
            if (has(out, doc)) kept.push(id);
            if (inScope(byId.get(id)!, { near, radiusKm })) wanted.push(id);
          }
          expect({ near, radiusKm, kept }).toEqual({ near, radiusKm, kept: wanted });
        },
      ),
      { numRuns: 400, seed: 20261129 },
    );
  }, 120_000);
});
