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
