// The search's query parameters as the domain takes them. The contract checks each parameter's
// form; what it cannot say is checked here and refused as the validator refuses (a 400 naming
// the parameter): a `near` off the globe, and `radius_km` without `near`.
import { isGeoPoint, type GeoPoint } from '../../domain/catalog/geo.ts';
import type { SearchRequest } from '../../domain/search/engine.port.ts';
import { invalidRequest } from '../problems/edge.error.ts';
import type { Input } from './operations.ts';

export function searchInput(query: Input<'fetchSchoolSearch'>['query'], idempotencyKey?: string): SearchRequest {
  const near = query.near === undefined ? undefined : parseNear(query.near);
  if (query.radius_km !== undefined && near === undefined) {
    throw invalidRequest([{ location: 'query', name: 'radius_km', message: 'needs near (a point to measure from)' }]);
  }
  return {
    query: query.query,
    // The contract takes a code in any case (users type `tx`); the catalog keeps it upper case.
    stateCode: query.stateCode?.toUpperCase(),
    // As the contract's lists come (one value or several); a repeated value counts once.
    level: query.level === undefined ? undefined : [...new Set(query.level)],
    type: query.type === undefined ? undefined : [...new Set(query.type)],
    near,
    radiusKm: query.radius_km,
    offset: query.offset,
    limit: query.limit,
    ...(idempotencyKey !== undefined && { idempotencyKey }),
  };
}

/** `<lat>,<lon>` (the contract's pattern holds), on the globe. */
function parseNear(text: string): GeoPoint {
  const [lat, lon] = text.split(',').map((part) => Number(part.trim())) as [number, number];
  if (!isGeoPoint(lat, lon)) {
    throw invalidRequest([
      {
        location: 'query',
        name: 'near',
        message: 'must be <latitude>,<longitude> with latitude -90 to 90 and longitude -180 to 180',
      },
    ]);
  }
  return { latitude: lat, longitude: lon };
}
