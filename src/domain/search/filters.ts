// What a search keeps besides its words: the state, levels, types and a distance from a point.
// Each narrows the catalog the query runs in (soft matching counts words among these schools
// only), by AND; within a list (several levels, several types) any one will do. Engines apply
// them however suits them, and must keep exactly the schools matchesScope keeps.
import type { School } from '../catalog/catalog.ports.ts';
import type { SchoolLevel, TypeFilter } from '../catalog/school-kind.ts';
import { distanceKm, type GeoPoint } from '../catalog/geo.ts';

export { TYPE_FILTERS, type TypeFilter } from '../catalog/school-kind.ts';

export interface SearchScope {
  /** Only schools in this state: an upper-case code as stored (the contract's StateCode). */
  readonly stateCode?: string | undefined;
  /** Only schools of one of these levels (a school of unknown level has none of them). */
  readonly level?: readonly SchoolLevel[] | undefined;
  /** Only schools of one of these types. */
  readonly type?: readonly TypeFilter[] | undefined;
  /** Rank equally good matches by distance from here (geo.ts), nearest first. */
  readonly near?: GeoPoint | undefined;
  /** With `near`: only schools within this many km of it (distance_km ≤ radius). */
  readonly radiusKm?: number | undefined;
}

/** Whether a school is of type `t` as a search means it. */
export function isOfType(school: Pick<School, 'type' | 'tags'>, t: TypeFilter): boolean {
  return t === 'charter' ? (school.tags?.includes('charter') ?? false) : school.type === t;
}

/** The school's distance from the scope's point, when both are known. */
export function distanceOf(
  school: Pick<School, 'latitude' | 'longitude'>,
  near: GeoPoint | undefined,
): number | undefined {
  if (near === undefined || school.latitude === undefined || school.longitude === undefined) return undefined;
  return distanceKm(near, { latitude: school.latitude, longitude: school.longitude });
}

/** Whether the scope keeps the school (its words aside). */
export function inScope(school: School, scope: SearchScope): boolean {
  if (scope.stateCode !== undefined && school.state !== scope.stateCode) return false;
  if (scope.level !== undefined && (school.level === undefined || !scope.level.includes(school.level))) return false;
  if (scope.type !== undefined && !scope.type.some((t) => isOfType(school, t))) return false;
  if (scope.radiusKm !== undefined) {
    const km = distanceOf(school, scope.near);
    if (km === undefined || km > scope.radiusKm) return false;
  }
  return true;
}

/**
 * Among equally good matches: schools with a distance first, nearest first; 0 when neither or
 * both are equally far (the static order decides).
 */
export function compareDistance(a: number | undefined, b: number | undefined): number {
  if (a === undefined) return b === undefined ? 0 : 1;
  if (b === undefined) return -1;
  return a - b;
}
