// Turns one row of any directory format into what a store indexes, or says why it cannot.
import { displayAddress, displayCity, displayName } from './display-name.ts';
import { isUuid, uuidV5 } from '../shared/ids.ts';
import type { SchoolDraft } from './catalog.ports.ts';
import { draftKind } from './school-kind.ts';
import { nameIdKey } from './school-identity.ts';
import { knownLocation } from './school-location.ts';
import { stateCode } from './state-names.ts';
import { words } from '../shared/normalize.ts';

export interface SchoolInput {
  schoolname: string;
  city: string;
  stateprovince: string;
  image_url?: string | undefined;
  schoolid?: string | undefined;
  aliases?: readonly string[] | undefined;
  /** 0–100, higher first among equally good matches (ranking-rules.ts); blank or missing: 0. A CSV gives it as text. */
  prominence?: number | string | undefined;
  /** Street address; blank or missing: unknown. */
  address?: string | undefined;
  /** Blank or missing: unknown. */
  postal_code?: string | undefined;
  /** Decimal degrees (WGS 84), both or neither; blank or missing: unknown. A CSV gives them as text. */
  latitude?: number | string | undefined;
  longitude?: number | string | undefined;
  /** `elementary`, `middle`, `high`, `other` or `postsecondary`; blank or missing: from the grades, else unknown. */
  level?: string | undefined;
  /** `PK`, `K`, `1`…`12` (NCES's `KG`, `01`, `Pre-K`, `Kindergarten` too); blank or missing: unknown. */
  lowest_grade?: string | undefined;
  highest_grade?: string | undefined;
  /** `public`, `private` or `postsecondary`; blank or missing: unknown. */
  type?: string | undefined;
  /** Facts the directory states (school-kind.ts TAGS), in any order. */
  tags?: readonly string[] | undefined;
  /** Stable key of the row in its source (e.g. `ipeds:166027`); the id is derived from it when there is no schoolid. */
  sourceKey?: string | undefined;
}

export const MAX_NAME_LENGTH = 200;
export const MAX_ALIASES = 10;
export const MAX_PROMINENCE = 100;
/** The contract's maxLength of `address` and `postal_code`. */
export const MAX_ADDRESS_LENGTH = 300;
export const MAX_POSTAL_CODE_LENGTH = 20;

/**
 * What a draft's id comes from: the row's schoolid, the source's own key (IPEDS UNITID, ODEF
 * Provider + Source_Id), or, for a row with neither, its name, city, province and location.
 */
export type IdBasis = 'schoolid' | 'source' | 'name';

export type DraftResult = { ok: true; draft: SchoolDraft; idBasis: IdBasis } | { ok: false; reason: string };

/**
 * Names, cities and addresses published ALL CAPS (whole CCD states, every HIFLD school) are
 * stored in a careful title case (display-name.ts); mixed-case text is kept as published. Only
 * letter case changes, and ids and search fold case: the id of a school does not depend on it.
 */
export function draftSchool(input: SchoolInput): DraftResult {
  const name = displayName(input.schoolname.trim().replace(/\s+/g, ' '));
  const city = displayCity(input.city.trim().replace(/\s+/g, ' '));
  if (!name) return { ok: false, reason: 'schoolname is empty' };
  if (name.length > MAX_NAME_LENGTH)
    return { ok: false, reason: `schoolname is longer than ${MAX_NAME_LENGTH} characters` };
  const nameWords = words(name);
  if (nameWords.length === 0) return { ok: false, reason: 'schoolname has no letters or digits' };
  if (!city) return { ok: false, reason: 'city is empty' };
  if (city.length > MAX_NAME_LENGTH) return { ok: false, reason: `city is longer than ${MAX_NAME_LENGTH} characters` };
  // Directories write codes in either case (ODEF: "qc") and sometimes names ("Ontario", "Québec").
  const stateResult = stateCode(input.stateprovince);
  if (!stateResult.ok) return stateResult;
  const state = stateResult.code;
  const givenImage = input.image_url?.trim() || null;
  const imageUrl = givenImage === null ? null : httpUrl(givenImage);
  if (imageUrl === undefined) return { ok: false, reason: `image_url "${givenImage}" is not an http(s) URL` };
  const prominence = prominenceOf(input.prominence);
  if (prominence === undefined)
    return {
      ok: false,
      reason: `prominence "${String(input.prominence)}" is not a whole number from 0 to ${MAX_PROMINENCE}`,
    };
  const givenAddress = text(input.address);
  const address = givenAddress === null ? null : displayAddress(givenAddress);
  if (address && address.length > MAX_ADDRESS_LENGTH)
    return { ok: false, reason: `address is longer than ${MAX_ADDRESS_LENGTH} characters` };
  const postalCode = text(input.postal_code);
  if (postalCode && postalCode.length > MAX_POSTAL_CODE_LENGTH)
    return { ok: false, reason: `postal_code is longer than ${MAX_POSTAL_CODE_LENGTH} characters` };
  const latitude = coordinate(input.latitude, 90);
  if (latitude === undefined)
    return { ok: false, reason: `latitude "${String(input.latitude)}" is not a number from -90 to 90` };
  const longitude = coordinate(input.longitude, 180);
  if (longitude === undefined)
    return { ok: false, reason: `longitude "${String(input.longitude)}" is not a number from -180 to 180` };
  // Half a position places the school nowhere: the row is wrong, not half known.
  if ((latitude === null) !== (longitude === null)) {
    return {
      ok: false,
      reason: latitude === null ? 'longitude is given without latitude' : 'latitude is given without longitude',
    };
  }
  const kind = draftKind(input);
  if (!kind.ok) return kind;
  const given = input.schoolid?.trim();
  if (given && !isUuid(given)) return { ok: false, reason: `schoolid "${given}" is not a UUID` };
  const located = { address, postalCode, latitude, longitude };
  const id = given
    ? given.toLowerCase()
    : uuidV5(input.sourceKey ?? nameIdKey({ name, city, state, ...located }, 'first'));
  const idBasis: IdBasis = given ? 'schoolid' : input.sourceKey !== undefined ? 'source' : 'name';
  const givenAliases = input.aliases ?? [];
  const nameWordSet = givenAliases.length === 0 ? undefined : new Set(nameWords);
  const aliases = [...new Set(givenAliases.map((a) => a.trim().replace(/\s+/g, ' ')))]
    .filter((a) => a && a.length <= MAX_NAME_LENGTH && isInformativeAlias(a, nameWordSet!))
    .slice(0, MAX_ALIASES);
  return {
    ok: true,
    draft: {
      id,
      name,
      city,
      state,
      imageUrl,
      ...knownLocation(located),
      ...kind.kind,
      aliases,
      prominence,
      ...(input.sourceKey === undefined ? {} : { sourceKey: input.sourceKey }),
    },
    idBasis,
  };
}

/** Trimmed, inner whitespace and control characters collapsed to one space; null when blank. */
function text(value: string | undefined): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes.
  return value?.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim() || null;
}

/**
 * Decimal degrees from -limit to limit, given as a number or as decimal text ("45.5017",
 * "-73.56"); null when blank or missing (unknown); undefined when invalid.
 */
function coordinate(value: number | string | undefined, limit: number): number | null | undefined {
  if (value === undefined || (typeof value === 'string' && value.trim() === '')) return null;
  const n = typeof value === 'number' ? value : /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n < -limit || n > limit) return undefined;
  // -0 would be written and compared as a different value from 0 by some stores.
  return n === 0 ? 0 : n;
}

/** A whole number 0–100 given as a number or as decimal digits; blank or missing is 0; undefined when invalid. */
function prominenceOf(value: number | string | undefined): number | undefined {
  if (value === undefined || (typeof value === 'string' && value.trim() === '')) return 0;
  const n = typeof value === 'number' ? value : /^\s*\d{1,3}\s*$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 0 && n <= MAX_PROMINENCE ? n : undefined;
}

/**
 * The URL in its serialised form (spaces and other characters percent-encoded), so that what is
 * stored is a valid URI as the contract's `format: uri` demands; undefined when it is not http(s).
 */
function httpUrl(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Placeholders directories put where there is no alternative name. */
const PLACEHOLDERS = new Set(['n a', 'na', 'none', 'null', 'nil', 'tbd']);

/**
 * An alias is worth indexing when it can find the school by words its name does not have
 * ("MIT", "UAB"). One made only of the name's own words (a fragment such as "College", or the
 * name itself) would only give the school a shorter text and so an inflated score.
 */
function isInformativeAlias(alias: string, nameWords: ReadonlySet<string>): boolean {
  const aliasWords = words(alias);
  if (aliasWords.length === 0 || PLACEHOLDERS.has(aliasWords.join(' '))) return false;
  return !aliasWords.every((w) => nameWords.has(w));
}
