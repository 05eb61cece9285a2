// A school's address, postal code and coordinates: optional in every directory, so a School holds
// only the ones that are known. Stores keep unknown ones as SQL NULL or as a missing field; these
// helpers are the one place that turns either into a School's fields and compares them.
import type { SchoolLocation } from './catalog.ports.ts';

/** What a store reads back: a value, or null/undefined for unknown. */
export interface StoredLocation {
  readonly address?: string | null | undefined;
  readonly postalCode?: string | null | undefined;
  readonly latitude?: number | null | undefined;
  readonly longitude?: number | null | undefined;
}

/** The known fields only, so that a School never carries `address: null` or `latitude: undefined`. */
export function knownLocation(stored: StoredLocation): SchoolLocation {
  const location: { address?: string; postalCode?: string; latitude?: number; longitude?: number } = {};
  if (stored.address != null) location.address = stored.address;
  if (stored.postalCode != null) location.postalCode = stored.postalCode;
  if (stored.latitude != null) location.latitude = stored.latitude;
  if (stored.longitude != null) location.longitude = stored.longitude;
  return location;
}

/** Whether two schools are at the same place as far as their directories say (unknown equals unknown). */
export function sameLocation(a: StoredLocation, b: StoredLocation): boolean {
  return (
    (a.address ?? null) === (b.address ?? null) &&
    (a.postalCode ?? null) === (b.postalCode ?? null) &&
    (a.latitude ?? null) === (b.latitude ?? null) &&
    (a.longitude ?? null) === (b.longitude ?? null)
  );
}
