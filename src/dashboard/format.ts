// How times, costs and requests read on the page (the reader's locale and time zone).
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dayOfMonth = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const numbers = new Intl.NumberFormat();

export function when(iso: string | null | undefined, fallback = 'never'): string {
  return iso ? dateTime.format(new Date(iso)) : fallback;
}

export function day(iso: string): string {
  return dateOnly.format(new Date(iso));
}

/** A UTC calendar day (YYYY-MM-DD) as "Nov 23": the usage days are UTC days. */
export function utcDay(date: string): string {
  return dayOfMonth.format(new Date(`${date}T00:00:00Z`));
}

export function count(n: number): string {
  return numbers.format(n);
}

/** `search_schools:harvard` → `Search “harvard”`; anything else as it is. */
export function requestMade(text: string): string {
  const search = /^search_schools:(.*)$/s.exec(text);
  return search ? `Search “${search[1]}”` : text;
}

/** What a search record says besides its words (ApiRequest's optional fields). */
export interface SearchParameters {
  readonly stateCode?: string;
  readonly offset?: number;
  readonly limit?: number;
  readonly level?: readonly string[];
  readonly type?: readonly string[];
  readonly near?: string;
  readonly radius_km?: number;
}

/**
 * A search's other parameters, so that two searches with the same words tell apart:
 * `TX · high or middle · public · within 12.5 km of 42.3736,-71.1097 · results 26–35`. Empty for
 * a record kept before searches kept them (and for anything not a search).
 */
export function searchParameters(r: SearchParameters): string {
  const parts: string[] = [];
  if (r.stateCode !== undefined) parts.push(r.stateCode);
  if (r.level !== undefined) parts.push(r.level.join(' or '));
  if (r.type !== undefined) parts.push(r.type.join(' or '));
  if (r.near !== undefined) {
    parts.push(r.radius_km === undefined ? `near ${r.near}` : `within ${numbers.format(r.radius_km)} km of ${r.near}`);
  }
  if (r.offset !== undefined && r.limit !== undefined) {
    parts.push(`results ${numbers.format(r.offset + 1)}–${numbers.format(r.offset + r.limit)}`);
  }
  return parts.join(' · ');
}
