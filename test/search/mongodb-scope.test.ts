// The scope of a search in MongoDB's query language (src/search/mongodb/scope.ts), evaluated by
// mingo over the documents the adapter writes: it keeps exactly the schools the rules keep
// (filters.ts, inScope), the radius to the metre as the rules round distances; and the same
// scope as Atlas Search filters.
import fc from 'fast-check';
import { Aggregator, Query } from 'mingo';
import { describe, expect, test } from 'vitest';
import { inScope } from '../../src/domain/search/filters.ts';
import { distanceKm, MAX_RADIUS_KM, type GeoPoint } from '../../src/domain/catalog/geo.ts';
import {
  ATLAS_EARTH_RADIUS_M,
  angleOfH,
  atlasNear,
  atlasScopeFilter,
  exactMatch,
  haversineH,
  hExpression,
  keepsNothing,
  kmOfH,
  maxH,
  countKey,
  scopeMatch,
} from '../../src/search/mongodb/scope.ts';
import { toDocument } from '../../src/mongodb-shared/school-document.ts';
import { SEARCH_EXTENSION } from '../../src/search/mongodb/catalog-extension.ts';
import { catalogOf } from '../support/search-arbitraries.ts';
import { POINTS, scopedQueryArb, scopedSchoolArb } from '../support/scope-arbitraries.ts';

const pointArb = fc.record({
  latitude: fc.double({ min: -90, max: 90, noNaN: true }),
  longitude: fc.double({ min: -180, max: 180, noNaN: true }),
});

/** The document's h as the server computes it (mingo standing in for it). */
function hOnServer(near: GeoPoint, at: GeoPoint): number {
  const [row] = new Aggregator([{ $project: { h: hExpression(near) } }]).run([{ _id: 1, ...at }]) as { h: number }[];
  return row!.h;
}

const kept = (match: Record<string, unknown>, doc: object) => new Query(match).test(doc as Record<string, unknown>);

describe('the radius as an expression of the server', () => {
  test('when a point is anywhere, then the expression computes the haversine term of geo.ts bit for bit, and its distance is distanceKm', () => {
    fc.assert(
      fc.property(pointArb, pointArb, (near, at) => {
        const h = haversineH(near, at);
        expect(Object.is(hOnServer(near, at), h)).toBe(true);
        expect(kmOfH(h)).toBe(distanceKm(near, at));
      }),
      { numRuns: 2000, seed: 20261127 },
    );
  });

  test('when the radius is a distance, that distance less a metre, or anything, then the match keeps a school exactly when distanceKm is within it', () => {
    fc.assert(
      fc.property(
        pointArb,
        pointArb,
        fc.oneof(fc.constant(0), fc.constant(-0.001), fc.double({ min: -5, max: 5, noNaN: true })),
        (near, at, shift) => {
          const km = distanceKm(near, at);
          const radius = Math.max(0.001, Math.round((km + shift) * 1000) / 1000);
          const doc = { _id: 'x', latitude: at.latitude, longitude: at.longitude };
          expect(kept(scopeMatch({ near, radiusKm: radius }), doc)).toBe(km <= radius);
        },
      ),
      { numRuns: 2000, seed: 20261128 },
    );
  });

  test('when the radius is half the circumference or more, then every school with coordinates is within; one without never is', () => {
    expect(maxH(MAX_RADIUS_KM + 1)).toBe(1);
    const near = { latitude: 0.5, longitude: 179.9 };
    const antipode = { latitude: -0.5, longitude: -0.1 };
    expect(kept(scopeMatch({ near, radiusKm: 20016 }), { _id: 1, ...antipode })).toBe(true);
    expect(kept(scopeMatch({ near, radiusKm: MAX_RADIUS_KM }), { _id: 1, ...antipode })).toBe(
      distanceKm(near, antipode) <= MAX_RADIUS_KM,
    );
    expect(kept(scopeMatch({ near, radiusKm: 20016 }), { _id: 1 })).toBe(false);
    expect(kept(scopeMatch({ near, radiusKm: 20016 }), { _id: 1, latitude: 3 })).toBe(false);
  });

  test('when maxH is asked, then it is the last term within the radius: the next double is beyond', () => {
    for (const radius of [0.001, 0.5, 1, 12.345, 100, 5000, 20000, MAX_RADIUS_KM]) {
      const h = maxH(radius);
      expect(kmOfH(h), String(radius)).toBeLessThanOrEqual(radius);
      const next = new Float64Array([h]);
      new BigUint64Array(next.buffer)[0]! += 1n;
      expect(kmOfH(next[0]!), String(radius)).toBeGreaterThan(radius);
    }
  });
});

describe('the scope as a $match', () => {
  test('when catalogs and scopes are random, then the $match keeps exactly the schools inScope keeps', () => {
    fc.assert(
      fc.property(
        fc.array(scopedSchoolArb, { minLength: 1, maxLength: 30 }),
        fc.array(scopedQueryArb, { minLength: 1, maxLength: 10 }),
        (schools, queries) => {
          const catalog = catalogOf(schools);
          const docs = catalog.map((s) => toDocument({ ...s, aliases: [...s.aliases] }, SEARCH_EXTENSION));
          for (const q of queries) {
            if (keepsNothing(q)) continue;
            // The state is the tokens' (search-fields.ts); here it is matched as a field.
            const match = { ...scopeMatch(q), ...(q.stateCode ? { state: q.stateCode } : {}) };
            const byServer = docs.filter((d) => kept(match, d)).map((d) => d._id);
            const byRules = catalog.filter((s) => inScope(s, q)).map((s) => s.id);
            expect(byServer, JSON.stringify(q)).toEqual(byRules);
          }
        },
      ),
      { numRuns: 300, seed: 20261129 },
    );
  });

  test('when the type is charter, then a school tagged charter is one, whatever its type; several types are any of them', () => {
    expect(scopeMatch({ type: ['charter'] })).toEqual({ tags: 'charter' });
    expect(scopeMatch({ type: ['public', 'private'] })).toEqual({ type: { $in: ['public', 'private'] } });
    expect(scopeMatch({ type: ['private', 'charter'] })).toEqual({
      $or: [{ type: { $in: ['private'] } }, { tags: 'charter' }],
    });
    expect(scopeMatch({ level: ['high'] })).toEqual({ level: { $in: ['high'] } });
    expect(scopeMatch({ stateCode: 'TX', near: POINTS[0] })).toEqual({});
    expect(keepsNothing({ level: [] })).toBe(true);
    expect(keepsNothing({ type: [] })).toBe(true);
    expect(keepsNothing({ level: ['high'], type: ['charter'] })).toBe(false);
  });

  test('when counts are cached, then the key names every part of the scope, and the point only with a radius', () => {
    const near = POINTS[0]!;
    const keys = [
      {},
      { stateCode: 'TX' },
      { level: ['high' as const] },
      { type: ['charter' as const] },
      { near, radiusKm: 5 },
      { near, radiusKm: 6 },
      { near: POINTS[3], radiusKm: 5 },
    ].map(countKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(countKey({ near })).toBe(countKey({}));
    expect(countKey({ level: ['high', 'middle'] })).toBe(countKey({ level: ['middle', 'high'] }));
  });
});

describe('the scope as Atlas Search filters', () => {
  const near = { latitude: 45.5, longitude: -73.6 };

  test('when levels and types are asked, then they are `in` and `equals` on the tokens the index maps, charter on the tags', () => {
    expect(atlasScopeFilter({ stateCode: 'QC', level: ['high', 'middle'], type: ['public'] })).toEqual([
      { equals: { path: 'state', value: 'QC' } },
      { in: { path: 'level', value: ['high', 'middle'] } },
      { in: { path: 'type', value: ['public'] } },
    ]);
    expect(atlasScopeFilter({ type: ['charter'] })).toEqual([{ equals: { path: 'tags', value: 'charter' } }]);
    expect(atlasScopeFilter({ type: ['charter', 'private'] })).toEqual([
      {
        compound: {
          should: [{ in: { path: 'type', value: ['private'] } }, { equals: { path: 'tags', value: 'charter' } }],
          minimumShouldMatch: 1,
        },
      },
    ]);
    expect(atlasScopeFilter({ near })).toEqual([]);
    expect(exactMatch({ near })).toBeUndefined();
  });

  test('when a radius is asked, then Atlas gets a circle a little wider than it, and the exact check follows', () => {
    const [circle] = atlasScopeFilter({ near, radiusKm: 25 });
    expect(circle).toMatchObject({
      geoWithin: { path: 'geo', circle: { center: { type: 'Point', coordinates: [-73.6, 45.5] } } },
    });
    const radius: number = circle!['geoWithin'].circle.radius;
    expect(radius).toBeGreaterThan(25_000.5);
    expect(radius).toBeLessThan(25_100);
    expect(angleOfH(maxH(25)) * ATLAS_EARTH_RADIUS_M).toBeCloseTo(25_000.5, 0);
    expect(exactMatch({ near, radiusKm: 25 })).toEqual({ $match: scopeMatch({ near, radiusKm: 25 }) });
    // A circle that would cover the globe: every school with a point.
    expect(atlasScopeFilter({ near, radiusKm: MAX_RADIUS_KM })).toEqual([{ exists: { path: 'geo' } }]);
  });

  test('when near is asked, then proximity is a score below a half (a ranked school adds one half: atlas-pipeline.ts): with a radius its pivot is the radius', () => {
    expect(atlasNear({})).toBeUndefined();
    expect(atlasNear({ near })).toEqual({
      near: {
        path: 'geo',
        origin: { type: 'Point', coordinates: [-73.6, 45.5] },
        pivot: 25_000,
        score: { boost: { value: 0.49 } },
      },
    });
    expect(atlasNear({ near, radiusKm: 3 })!['near'].pivot).toBe(3000);
  });
});
