// A search's scope (src/domain/search/filters.ts: state, levels, types, a radius around `near`)
// in the query languages of the MongoDB engines, keeping exactly the schools inScope keeps:
//
// - the $text engine's $match conditions (scopeMatch), after $text in the same stage: equality on
//   `level`, `type` and `tags`, and for a radius an `$expr` that computes the haversine term of
//   geo.ts (distanceKm) with the same operations in the same order, compared with the largest
//   value whose distance, rounded to metres as the rules round it, is within the radius (maxH);
// - the Atlas engine's compound filters (atlasScopeFilter): `equals` and `in` on token fields, and
//   for a radius a `geoWithin` circle a little larger than the radius (Atlas measures on its own
//   sphere and without the rules' rounding), followed by the same exact `$expr` in a `$match`.
//
// So a count of the server's is a count of the rules' schools, not of a nearby circle's.
import { scopeKey } from '../../domain/search/search-key.ts';
import type { Document } from 'mongodb';
import type { SearchScope } from '../../domain/search/filters.ts';
import { EARTH_RADIUS_KM, type GeoPoint } from '../../domain/catalog/geo.ts';

const RAD = Math.PI / 180;

/**
 * The haversine term between `near` and `at`, computed as geo.ts's distanceKm computes it (the
 * same operations on the same values, in the same order), so that hExpression gives it bit for bit.
 */
export function haversineH(near: GeoPoint, at: GeoPoint): number {
  const dLat = (at.latitude - near.latitude) * RAD;
  const dLon = (at.longitude - near.longitude) * RAD;
  return (
    Math.sin(dLat / 2) ** 2 + Math.cos(near.latitude * RAD) * Math.cos(at.latitude * RAD) * Math.sin(dLon / 2) ** 2
  );
}

/** distanceKm's distance for a haversine term, rounded to metres as it rounds. */
export function kmOfH(h: number): number {
  const km = 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
  return Math.round(km * 1000) / 1000;
}

const bits = new BigUint64Array(1);
const asDouble = new Float64Array(bits.buffer);

/**
 * The largest haversine term whose distance (kmOfH) is at most `radiusKm`: a school is within the
 * radius exactly when its term is at most this one. Found by bisection over the doubles of [0, 1]
 * (a non-negative double's bits order as its value does); kmOfH only grows with h.
 */
export function maxH(radiusKm: number): number {
  asDouble[0] = 1;
  let hi = bits[0]!;
  if (kmOfH(1) <= radiusKm) return 1;
  let lo = 0n; // h = 0: distance 0, within every radius (radius_km > 0).
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    bits[0] = mid;
    if (kmOfH(asDouble[0]!) <= radiusKm) lo = mid;
    else hi = mid;
  }
  bits[0] = lo;
  return asDouble[0]!;
}

/** The great-circle angle (radians) of a haversine term. */
export function angleOfH(h: number): number {
  return 2 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * haversineH(near, the document's latitude and longitude) as an aggregation expression: null for
 * a document without coordinates. $sin and $cos are the server's; the rest is exact arithmetic.
 */
export function hExpression(near: GeoPoint): Document {
  const half = (field: string, from: number) => ({
    $sin: { $divide: [{ $multiply: [{ $subtract: [field, from] }, RAD] }, 2] },
  });
  return {
    $let: {
      vars: { sLat: half('$latitude', near.latitude), sLon: half('$longitude', near.longitude) },
      in: {
        $add: [
          { $multiply: ['$$sLat', '$$sLat'] },
          {
            $multiply: [
              { $multiply: [Math.cos(near.latitude * RAD), { $cos: { $multiply: ['$latitude', RAD] } }] },
              { $multiply: ['$$sLon', '$$sLon'] },
            ],
          },
        ],
      },
    },
  };
}

/** Within `radiusKm` of `near` as the rules measure it: match conditions on the stored coordinates. */
export function withinMatch(near: GeoPoint, radiusKm: number): Document {
  return {
    // A school without coordinates has no distance: never within a radius (inScope).
    latitude: { $exists: true },
    longitude: { $exists: true },
    $expr: { $lte: [hExpression(near), maxH(radiusKm)] },
  };
}

/**
 * Whether the scope keeps no school at all: an empty list of levels or types (none is one of
 * them), or a radius without a point (no school has a distance: filters.ts, inScope; the API
 * refuses it, an engine's caller may not). The server's questions could not say so: scopeMatch
 * has no radius without a point, and a total counted there would count schools the rules drop.
 */
export function keepsNothing(scope: SearchScope): boolean {
  return (
    scope.level?.length === 0 || scope.type?.length === 0 || (scope.radiusKm !== undefined && scope.near === undefined)
  );
}

/** The scope's conditions beside the state (the $text engine has the state in its tokens), for a $match. */
export function scopeMatch(scope: SearchScope): Document {
  const match: Document = {};
  if (scope.level !== undefined) match['level'] = { $in: [...scope.level] };
  if (scope.type !== undefined) {
    const plain = scope.type.filter((t) => t !== 'charter');
    const either: Document[] = [
      ...(plain.length > 0 || !scope.type.includes('charter') ? [{ type: { $in: plain } }] : []),
      ...(scope.type.includes('charter') ? [{ tags: 'charter' }] : []),
    ];
    Object.assign(match, either.length === 1 ? either[0] : { $or: either });
  }
  if (scope.radiusKm !== undefined && scope.near !== undefined)
    Object.assign(match, withinMatch(scope.near, scope.radiusKm));
  return match;
}

/** The scope as a key of the counts kept: a count holds for one scope, where a point counts only with a radius. */
export function countKey(scope: SearchScope): string {
  return scopeKey(scope.radiusKm === undefined ? { ...scope, near: undefined } : scope);
}

/**
 * The Earth's radius Atlas Search (Lucene) measures circles and `near` with: its mean radius, in
 * metres. The rules' is 6371.0088 km; the circle is widened in any case (ATLAS_CIRCLE_MARGIN).
 */
export const ATLAS_EARTH_RADIUS_M = 6_371_008.7714;
/** How much larger than the radius Atlas's circle is: its sphere, its encoding of points (centimetres) and the rules' rounding to metres differ by far less. */
export const ATLAS_CIRCLE_MARGIN = 1.001;
const ATLAS_CIRCLE_SLACK_M = 10;

/** `near` without a radius: the distance at which Atlas's proximity score is one half. */
export const ATLAS_NEAR_PIVOT_M = 25_000;

const point = (p: GeoPoint) => ({ type: 'Point', coordinates: [p.longitude, p.latitude] });

/**
 * The scope as Atlas Search compound filters (the index maps state, level, type and tags as
 * tokens, geo as a geo point). A radius is a circle a little larger than the rules' (or, when that
 * circle would cover the globe, every school with coordinates): the exact check is `exactMatch`.
 */
export function atlasScopeFilter(scope: SearchScope): Document[] {
  const filter: Document[] = [];
  if (scope.stateCode !== undefined) filter.push({ equals: { path: 'state', value: scope.stateCode } });
  if (scope.level !== undefined) filter.push({ in: { path: 'level', value: [...scope.level] } });
  if (scope.type !== undefined) {
    const plain = scope.type.filter((t) => t !== 'charter');
    const either: Document[] = [
      ...(plain.length > 0 ? [{ in: { path: 'type', value: plain } }] : []),
      ...(scope.type.includes('charter') ? [{ equals: { path: 'tags', value: 'charter' } }] : []),
    ];
    filter.push(either.length === 1 ? either[0]! : { compound: { should: either, minimumShouldMatch: 1 } });
  }
  if (scope.radiusKm !== undefined && scope.near !== undefined) {
    const radius = angleOfH(maxH(scope.radiusKm)) * ATLAS_EARTH_RADIUS_M * ATLAS_CIRCLE_MARGIN + ATLAS_CIRCLE_SLACK_M;
    filter.push(
      radius >= Math.PI * ATLAS_EARTH_RADIUS_M
        ? { exists: { path: 'geo' } }
        : { geoWithin: { path: 'geo', circle: { center: point(scope.near), radius } } },
    );
  }
  return filter;
}

/** The exact radius check after Atlas's circle, on the stored source's coordinates; undefined without a radius. */
export function exactMatch(scope: SearchScope): Document | undefined {
  return scope.radiusKm !== undefined && scope.near !== undefined
    ? { $match: withinMatch(scope.near, scope.radiusKm) }
    : undefined;
}

/** Equally good matches nearest first: Atlas's proximity score, below one, so it never outweighs a credit. */
export function atlasNear(scope: SearchScope): Document | undefined {
  if (scope.near === undefined) return undefined;
  return {
    near: {
      path: 'geo',
      origin: point(scope.near),
      pivot: scope.radiusKm === undefined ? ATLAS_NEAR_PIVOT_M : Math.max(1, scope.radiusKm * 1000),
      score: { boost: { value: 0.49 } },
    },
  };
}

/**
 * How far a candidate is, for sorting on the server: haversineH, or 2 (above any term) for a
 * school without coordinates, which the rules put after every school with them.
 */
export function nearnessExpression(near: GeoPoint): Document {
  return { $ifNull: [hExpression(near), 2] };
}
