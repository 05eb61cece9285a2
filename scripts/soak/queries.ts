// The searches the soak sends: drawn from the seed's 6,112 colleges (all in the catalog it loads), so
// they look like what people type: a word of a real name, a typed-so-far prefix, two or three
// words of a name ("univ tex"), a whole name as written, an alias ("mit"), now and then a typo that
// finds nothing; about 30% within the school's state, about 15% past the first page.
import { readFileSync } from 'node:fs';
import { one, weighted, type Rng } from '../bench/random.ts';

export interface SearchQuery {
  readonly query: string;
  readonly stateCode?: string | undefined;
  readonly offset?: number | undefined;
  readonly limit?: number | undefined;
}

interface SeedSchool {
  readonly schoolname: string;
  readonly stateprovince: string;
  readonly aliases: readonly string[];
}

export function readSeed(path: string): SeedSchool[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SeedSchool);
}

/** Words of a name as written (case and accents kept: the server folds them). */
const tokens = (name: string): string[] => name.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

const KINDS = [
  ['word', 25],
  ['prefix', 20],
  ['multi-word', 25],
  ['whole name', 12],
  ['alias', 8],
  ['typo', 5],
  ['common prefix', 5],
] as const;
type Kind = (typeof KINDS)[number][0];

/** Prefixes that match hundreds of names: every one costs a full count (cached after the first). */
const COMMON_PREFIXES = ['co', 'un', 'sch', 'coll', 'univ', 'tech', 'beau', 'inst', 'comm', 'st', 'saint'];

/** `count` queries drawn with `r` from the seed's schools. */
export function makeQueries(schools: readonly SeedSchool[], count: number, r: Rng): SearchQuery[] {
  const pickKind = weighted<Kind>(KINDS);
  const withAliases = schools.filter((s) => s.aliases.length > 0);
  const prefixOf = (word: string) => (word.length <= 3 ? word : word.slice(0, 3 + Math.floor(r() * (word.length - 2))));
  const queries: SearchQuery[] = [];
  while (queries.length < count) {
    const school = one(r, schools);
    const ws = tokens(school.schoolname);
    const long = ws.filter((w) => w.length >= 3);
    if (long.length === 0) continue;
    let query: string;
    let state: string | undefined = school.stateprovince;
    switch (pickKind(r)) {
      case 'word':
        query = one(r, long).toLowerCase();
        break;
      case 'prefix':
        query = prefixOf(one(r, long)).toLowerCase();
        break;
      case 'multi-word': {
        const n = Math.min(ws.length, 2 + Math.floor(r() * 2));
        const start = Math.floor(r() * (ws.length - n + 1));
        // Typed-so-far: every word but the one-letter ones may be cut short.
        query = ws
          .slice(start, start + n)
          .map((w) => (r() < 0.5 ? prefixOf(w) : w))
          .join(' ');
        break;
      }
      case 'whole name':
        query = school.schoolname;
        break;
      case 'alias': {
        const s = one(r, withAliases);
        query = one(r, s.aliases);
        state = s.stateprovince;
        break;
      }
      case 'typo': {
        const w = one(r, long).toLowerCase();
        const i = 1 + Math.floor(r() * (w.length - 1));
        query = `${w.slice(0, i)}qx${w.slice(i)}`;
        break;
      }
      case 'common prefix':
        query = one(r, COMMON_PREFIXES);
        break;
    }
    if (query.trim() === '' || query.length > 200) continue;
    const paged = r() < 0.15;
    queries.push({
      query,
      stateCode: r() < 0.3 ? state : undefined,
      offset: paged ? one(r, [25, 50, 75, 100, 250]) : undefined,
      limit: paged || r() < 0.3 ? one(r, [5, 10, 20, 25]) : undefined,
    });
  }
  return queries;
}

export function searchPath(q: SearchQuery): string {
  const params = new URLSearchParams({ query: q.query });
  if (q.stateCode !== undefined) params.set('stateCode', q.stateCode);
  if (q.offset !== undefined) params.set('offset', String(q.offset));
  if (q.limit !== undefined) params.set('limit', String(q.limit));
  return `/v1/fetchSchoolSearch?${params.toString()}`;
}
