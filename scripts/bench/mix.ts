// The searches of the load mix, by class, built with a fixed seed from REAL names (the IPEDS seed
// and the Canadian sample, which the bench catalog contains): what a search box sends while people
// type names they know. About 30% of every class carries the school's own stateCode; most ask for
// the first page of 25, some for a page further on (offset 25, 100 or 500) or a shorter page.
import type { SearchRequest } from '../../src/domain/search/engine.port.ts';
import { fold } from '../../src/domain/shared/normalize.ts';
import type { CatalogRow } from './catalog-file.ts';
import { around } from '../quality/nearby-classes.ts';
import { mulberry32, one, weighted, type Rng } from './random.ts';

export const MIX_CLASSES = ['prefix-1-4', 'word', 'common', 'multi', 'typo', 'near', 'filtered'] as const;
export type MixClass = (typeof MIX_CLASSES)[number];

/** Share of each class in the mix (out of 100). */
export const MIX_WEIGHT: Readonly<Record<MixClass, number>> = {
  'prefix-1-4': 20,
  word: 15,
  common: 12,
  multi: 20,
  typo: 13,
  // A school's name typed near it (a phone's position), as a sign-up form or a parent's app asks.
  near: 10,
  // A word or the start of one, with a level or type filter (sometimes both, or a radius).
  filtered: 10,
};

/** Words and phrases that most of the catalog (real and synthetic) contains. */
const COMMON = [
  'school',
  'college',
  'university',
  'saint',
  'community college',
  'academy',
  'institute',
  'high school',
  'elementary',
  'elementary school',
  'middle school',
  'technical college',
  'state university',
  'st',
  'university of',
  'beauty',
  'christian',
  'center',
];

/** Words that do not tell a school from others: never a school's "distinctive word". */
const GENERIC = new Set([
  ...COMMON.flatMap((c) => c.split(' ')),
  'of',
  'the',
  'and',
  'at',
  'for',
  'in',
  'de',
  'du',
  'la',
  'le',
  'des',
  'community',
  'state',
  'technical',
  'technology',
  'health',
  'sciences',
  'science',
  'art',
  'arts',
  'design',
  'campus',
  'career',
  'nursing',
  'medical',
  'institute',
  'seminary',
  'theological',
  'barber',
  'cosmetology',
]);

export interface MixQuery extends SearchRequest {
  readonly path: string;
}

/** A point `km` or less from a school (the quality benchmark's, nearby-classes.ts). */
const near = (s: CatalogRow, km: number, r: Rng) => around({ latitude: s.latitude!, longitude: s.longitude! }, km, r);

const LEVELS = ['elementary', 'middle', 'high', 'postsecondary'] as const;
const TYPES = ['public', 'private', 'charter', 'postsecondary'] as const;

const SEARCH_PATH = '/v1/fetchSchoolSearch';

/** A name's words as typed: split on spaces, outer punctuation dropped ("St." → St, "Mary's" kept). */
const tokens = (name: string): string[] =>
  name
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);

const MISSPELL = ['substitute', 'delete', 'insert', 'swap'] as const;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One edit (a letter wrong, missing, extra, or two swapped), anywhere in the word. */
function misspell(word: string, r: Rng): string {
  const i = Math.floor(r() * word.length);
  const letter = LETTERS[Math.floor(r() * LETTERS.length)]!;
  switch (one(r, MISSPELL)) {
    case 'substitute':
      return word.slice(0, i) + letter + word.slice(i + 1);
    case 'delete':
      return word.slice(0, i) + word.slice(i + 1);
    case 'insert':
      return word.slice(0, i) + letter + word.slice(i);
    case 'swap': {
      const j = Math.min(i, word.length - 2);
      return word.slice(0, j) + word[j + 1]! + word[j]! + word.slice(j + 2);
    }
  }
}

/**
 * `perClass` searches per class, drawn with `r`. Repeats are kept (the load picks from the list
 * uniformly, so a search drawn twice is sent twice as often, as "school" is typed more often than
 * a rare name); distinctCount() says how many different ones there are.
 */
export function makeMix(real: readonly CatalogRow[], perClass: number, r: Rng): Record<MixClass, MixQuery[]> {
  // How many real names contain a word: a name's distinctive word is its rarest non-generic one.
  const df = new Map<string, number>();
  for (const s of real) for (const w of new Set(tokens(s.schoolname).map(fold))) df.set(w, (df.get(w) ?? 0) + 1);
  const distinctive = (ws: readonly string[]): string | undefined =>
    ws
      .filter((w) => /^\p{L}{3,}$/u.test(w) && !GENERIC.has(fold(w)))
      .sort((a, b) => (df.get(fold(a)) ?? 0) - (df.get(fold(b)) ?? 0))[0];
  const withWord = (word: string) => real.filter((s) => fold(s.schoolname).includes(word));
  const commonSchools = new Map(COMMON.map((c) => [c, withWord(c)] as const));
  const lower = (text: string) => (r() < 0.75 ? text.toLowerCase() : text);

  type Drawn = { q: string; state: string; scope?: Omit<SearchRequest, 'query' | 'stateCode' | 'offset' | 'limit'> };
  /** One query of a class, or undefined when the school drawn does not lend itself to it. */
  const draw: Record<MixClass, () => Drawn | undefined> = {
    'prefix-1-4': () => {
      const s = one(r, real);
      const ws = tokens(s.schoolname);
      const word = r() < 0.5 ? ws[0] : distinctive(ws);
      if (!word || !/^[\p{L}\p{N}]/u.test(word)) return undefined;
      return { q: word.slice(0, 1 + Math.floor(r() * 4)).toLowerCase(), state: s.stateprovince };
    },
    word: () => {
      const s = one(r, real);
      const word = distinctive(tokens(s.schoolname));
      return word ? { q: lower(word), state: s.stateprovince } : undefined;
    },
    common: () => {
      const q = one(r, COMMON);
      const schools = commonSchools.get(q)!;
      return { q, state: one(r, schools.length ? schools : real).stateprovince };
    },
    multi: () => {
      const s = one(r, real);
      const ws = tokens(s.schoolname);
      if (ws.length < 2) return undefined;
      const n = Math.min(ws.length, r() < 0.6 ? 2 : 3);
      const start = Math.floor(r() * (ws.length - n + 1));
      const take = ws.slice(start, start + n);
      // The last word is often still being typed.
      const last = take[n - 1]!;
      if (r() < 0.5 && last.length > 2) take[n - 1] = last.slice(0, 1 + Math.floor(r() * (last.length - 1)));
      return { q: lower(take.join(' ')), state: s.stateprovince };
    },
    typo: () => {
      const s = one(r, real);
      const ws = tokens(s.schoolname);
      const candidates = ws.flatMap((w, i) => (/^\p{L}{5,}$/u.test(w) ? [i] : []));
      if (candidates.length === 0) return undefined;
      const i = one(r, candidates);
      const typed = misspell(ws[i]!.toLowerCase(), r);
      if (typed === ws[i]!.toLowerCase()) return undefined;
      return { q: ws.map((w, j) => (j === i ? typed : w.toLowerCase())).join(' '), state: s.stateprovince };
    },
    near: () => {
      const s = one(r, real);
      if (s.latitude === undefined || s.longitude === undefined) return undefined;
      const ws = tokens(s.schoolname);
      // The whole name, or its first words still being typed.
      const n = r() < 0.5 ? ws.length : Math.max(1, Math.ceil(ws.length / 2));
      const q = lower(ws.slice(0, n).join(' '));
      const radius = r() < 0.2 ? { radiusKm: one(r, [5, 25, 100]) } : {};
      return { q, state: s.stateprovince, scope: { near: near(s, 2, r), ...radius } };
    },
    filtered: () => {
      const s = one(r, real);
      const ws = tokens(s.schoolname);
      const word = r() < 0.5 ? distinctive(ws) : ws[0]?.slice(0, 1 + Math.floor(r() * 4));
      if (!word) return undefined;
      const scope: NonNullable<Drawn['scope']> = {};
      const pick = r();
      if (pick < 0.4) Object.assign(scope, { level: [one(r, LEVELS)] });
      else if (pick < 0.7) Object.assign(scope, { type: [one(r, TYPES)] });
      else if (pick < 0.9) Object.assign(scope, { level: [one(r, LEVELS)], type: [one(r, TYPES)] });
      else if (s.latitude !== undefined) Object.assign(scope, { near: near(s, 5, r), radiusKm: 25 });
      else return undefined;
      return { q: word.toLowerCase(), state: s.stateprovince, scope };
    },
  };

  const offsetOf = weighted<number>([
    [0, 85],
    [25, 8],
    [100, 5],
    [500, 2],
  ]);
  const result = {} as Record<MixClass, MixQuery[]>;
  for (const cls of MIX_CLASSES) {
    const list: MixQuery[] = [];
    for (let attempt = 0; list.length < perClass && attempt < perClass * 50; attempt++) {
      const drawn = draw[cls]();
      if (!drawn) continue;
      const stateCode = r() < 0.3 ? drawn.state : undefined;
      const offset = offsetOf(r);
      const limit = r() < 0.1 ? 10 : 25;
      let path = `${SEARCH_PATH}?query=${encodeURIComponent(drawn.q)}`;
      if (stateCode) path += `&stateCode=${stateCode}`;
      const scope = drawn.scope ?? {};
      for (const level of scope.level ?? []) path += `&level=${level}`;
      for (const type of scope.type ?? []) path += `&type=${type}`;
      if (scope.near) path += `&near=${scope.near.latitude},${scope.near.longitude}`;
      if (scope.radiusKm !== undefined) path += `&radius_km=${scope.radiusKm}`;
      if (offset) path += `&offset=${offset}`;
      if (limit !== 25) path += `&limit=${limit}`;
      list.push({ path, query: drawn.q, stateCode, ...scope, offset, limit });
    }
    result[cls] = list;
  }
  return result;
}

/** Different search paths in a list. */
export const distinctCount = (queries: readonly MixQuery[]): number => new Set(queries.map((q) => q.path)).size;

/** Searches drawn per class for the distinct searches, before repeats are dropped. */
export const DISTINCT_PER_CLASS = 6_000;

/**
 * The distinct searches (33,423 on the seed, seed 1): drawn from the catalog's names with another
 * seed than the mix's, repeats dropped, each to be sent once: queries the server has never seen,
 * as a day of typing brings them. By class, each class's paths in the order drawn.
 */
export function distinctSearches(real: readonly CatalogRow[], seed: number) {
  const drawn = makeMix(real, DISTINCT_PER_CLASS, mulberry32(seed + 2000));
  const seen = new Set<string>();
  return MIX_CLASSES.map((c) => ({
    name: c,
    weight: MIX_WEIGHT[c],
    paths: drawn[c].map((q) => q.path).filter((path) => !seen.has(path) && seen.add(path)),
  }));
}
