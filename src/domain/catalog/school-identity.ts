// Which school a row is when neither a schoolid nor its source's own key says: its name, city and
// province, and where it is. Two "École Sainte-Bernadette" in Saguenay, one at G7H 3T7 and one at
// G7S 1S1, are two schools; only rows that agree on every location field they both know are one.
//
// The id is a name-based UUID of that key, so that an unchanged file imported again keeps every
// id. It holds the first location field known of: postal code (the most stable), else the street
// address, else the coordinates rounded to 3 decimals (about 100 m). The cost, written down in
// docs/import.md: such a school whose postal code (or, lacking one, address) changes gets a new
// id. read.ts widens the key to every known field for rows whose first key is shared yet whose
// locations disagree (two schools in one rural postal code).
import { uuidV5 } from '../shared/ids.ts';
import type { StoredLocation } from './school-location.ts';
import { nameSortKey } from '../shared/normalize.ts';

export interface NamedPlace extends StoredLocation {
  readonly name: string;
  readonly city: string;
  /** The contract's code. */
  readonly state: string;
}

/** Postal code, address and coordinates in the form they are compared in; undefined when unknown. */
interface Comparable {
  readonly postal: string | undefined;
  readonly address: string | undefined;
  /** 4 decimals, about 10 m: what "the same coordinates" means. */
  readonly point: string | undefined;
  /** 3 decimals, about 100 m: the id's, so that a refined geocode keeps it. */
  readonly area: string | undefined;
}

function comparable(place: StoredLocation): Comparable {
  const compact = place.postalCode?.toUpperCase().replace(/[^0-9A-Z]/g, '') || undefined;
  // ZIP+4 is the ZIP: the four digits change more often than the school does.
  const postal = compact && /^\d{9}$/.test(compact) ? compact.slice(0, 5) : compact;
  const address = place.address ? nameSortKey(place.address) || undefined : undefined;
  const { latitude, longitude } = place;
  const fixed = (n: number, digits: number) => n.toFixed(digits).replace(/^-(0\.0+)$/, '$1');
  const at = (digits: number) =>
    latitude == null || longitude == null ? undefined : `${fixed(latitude, digits)},${fixed(longitude, digits)}`;
  return { postal, address, point: at(4), area: at(3) };
}

/**
 * The key of a school that no id names: folded name, city, province, then `first` the first
 * known of postal code, address and coordinates (the id of an ordinary row), or `all` of them.
 * A school with no known location has the key every version before this one gave it.
 */
export function nameIdKey(place: NamedPlace, fields: 'first' | 'all'): string {
  const base = `name:${nameSortKey(place.name)}|${nameSortKey(place.city)}|${place.state}`;
  const { postal, address, point, area } = comparable(place);
  const parts = [
    postal === undefined ? undefined : `postal:${postal}`,
    address === undefined ? undefined : `address:${address}`,
    fields === 'first'
      ? area === undefined
        ? undefined
        : `at:${area}`
      : point === undefined
        ? undefined
        : `at:${point}`,
  ].filter((part) => part !== undefined);
  return [base, ...(fields === 'first' ? parts.slice(0, 1) : parts)].join('|');
}

export function nameId(place: NamedPlace, fields: 'first' | 'all'): string {
  return uuidV5(nameIdKey(place, fields));
}

/**
 * Whether some two of these places disagree: a location field that both know differs (a field
 * only one knows does not disagree). Linear: two disagree exactly when some field has two
 * different known values among them all.
 */
export function someDisagree(places: readonly StoredLocation[]): boolean {
  const known = { postal: new Set<string>(), address: new Set<string>(), point: new Set<string>() };
  for (const place of places) {
    const c = comparable(place);
    if (c.postal !== undefined) known.postal.add(c.postal);
    if (c.address !== undefined) known.address.add(c.address);
    if (c.point !== undefined) known.point.add(c.point);
    if (known.postal.size > 1 || known.address.size > 1 || known.point.size > 1) return true;
  }
  return false;
}
