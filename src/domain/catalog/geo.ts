// Distances for "near me": the great-circle (haversine) distance on a sphere of the Earth's mean
// radius, in kilometres rounded to metres. Every engine orders and filters by this one number, as
// the response shows it (`distance_km`), so a school's place in the order never depends on a
// rounding the caller cannot see, nor on which engine answered.

/** A point in decimal degrees (WGS 84). */
export interface GeoPoint {
  readonly latitude: number;
  readonly longitude: number;
}

/** IUGG mean Earth radius. */
export const EARTH_RADIUS_KM = 6371.0088;
/** Half the Earth's circumference: every place is within it of every other. */
export const MAX_RADIUS_KM = 20015;

const RAD = Math.PI / 180;

/** Kilometres between a and b along the Earth's surface, rounded to 3 decimals (metres). */
export function distanceKm(a: GeoPoint, b: GeoPoint): number {
  const dLat = (b.latitude - a.latitude) * RAD;
  const dLon = (b.longitude - a.longitude) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * RAD) * Math.cos(b.latitude * RAD) * Math.sin(dLon / 2) ** 2;
  // min: rounding can push h a hair above 1 for antipodal points.
  const km = 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
  return Math.round(km * 1000) / 1000;
}

/** Whether a latitude and longitude are on the globe. */
export function isGeoPoint(latitude: number, longitude: number): boolean {
  return (
    Number.isFinite(latitude) &&
    Number.isFinite(longitude) &&
    latitude >= -90 &&
    latitude <= 90 &&
    longitude >= -180 &&
    longitude <= 180
  );
}
