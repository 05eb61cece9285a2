// The queries the bench sends, by class, and the search paths built from them.
import type { SchoolInput } from '../../src/domain/school.draft.ts';
import { STATE_CODES } from '../../src/domain/states.ts';
import { words } from '../../src/domain/search/normalize.ts';
import { one, type Rng } from './random.ts';

export interface Query {
  readonly q: string;
  readonly state?: string | undefined;
}

export const CLASSES = ['rare', 'medium', 'common', 'prefix-1', 'prefix-2-3', 'multi-word'] as const;
export type QueryClass = (typeof CLASSES)[number];

const COMMON_WORDS = [
  'school', 'elementary', 'high', 'middle', 'academy', 'university', 'college', 'saint', 'st', 'ecole',
  'École', 'public', 'christian', 'center', 'secondary', 'community',
];
const PREFIX_1 = ['s', 'e', 'h', 'm', 'c', 'a', 'l', 'w', 'p', 'b', 'j', 'r', 't', 'd', 'g', 'o'];
const PREFIX_2_3 = [
  'sa', 'el', 'hi', 'sch', 'lin', 'mo', 'wa', 'ch', 'st', 'uni', 'ec', 'col', 'ma', 'be', 'ro', 'ja',
  'mar', 'gr', 'pi', 'ce', 'éc', 'ac', 'mi', 'ha',
];
const MULTI_TEMPLATES = [
  'high school', 'elementary school', 'saint mary', 'st marys', "St. Mary's", 'ecole secondaire',
  'École secondaire', 'university of', 'lincoln high', 'john f kennedy', 'our lady', 'holy family',
  'middle school', 'community college', 'state university', 'ecole montreal', 'cegep de', 'sainte marie',
  'mt pleasant', 'a&m', 'washington elem', 'jefferson middle', 'roosevelt high school',
];

/**
 * Queries per class, each drawn from the catalog where it matters: rare and medium words by how
 * many names contain them, multi-word queries from words of real names (so they hit).
 */
export function makeQueries(catalog: readonly SchoolInput[], r: Rng): Record<QueryClass, Query[]> {
  const df = new Map<string, { n: number; state: string }>();
  for (const s of catalog) {
    for (const w of new Set(words(s.schoolname))) {
      const e = df.get(w);
      if (e) e.n++;
      else df.set(w, { n: 1, state: s.stateprovince });
    }
  }
  const pickWords = (min: number, max: number, count: number, minLength: number): Query[] => {
    const pool = [...df].filter(([w, e]) => e.n >= min && e.n <= max && w.length >= minLength);
    const out: Query[] = [];
    for (let i = 0; i < count && pool.length > 0; i++) {
      const [w, e] = one(r, pool);
      // A third are typed-so-far prefixes of the word.
      const q = r() < 0.33 ? w.slice(0, Math.max(minLength - 1, w.length - 2)) : w;
      out.push({ q, state: e.state });
    }
    return out;
  };
  const states = [...STATE_CODES];
  const multi: Query[] = MULTI_TEMPLATES.map((q) => ({ q, state: one(r, states) }));
  while (multi.length < 300) {
    const s = one(r, catalog);
    const ws = s.schoolname.split(/\s+/);
    const start = Math.floor(r() * Math.max(1, ws.length - 1));
    const take = ws.slice(start, start + (r() < 0.7 ? 2 : 3));
    if (take.length < 2) continue;
    // The last word is often still being typed.
    const last = take[take.length - 1]!;
    if (r() < 0.4 && last.length > 3) take[take.length - 1] = last.slice(0, 3 + Math.floor(r() * (last.length - 3)));
    multi.push({ q: r() < 0.5 ? take.join(' ').toLowerCase() : take.join(' '), state: s.stateprovince });
  }
  return {
    rare: pickWords(1, 3, 300, 5),
    medium: pickWords(100, 2500, 300, 4),
    common: COMMON_WORDS.map((q) => ({ q, state: one(r, states) })),
    'prefix-1': PREFIX_1.map((q) => ({ q, state: one(r, states) })),
    'prefix-2-3': PREFIX_2_3.map((q) => ({ q, state: one(r, states) })),
    'multi-word': multi,
  };
}

const SEARCH_PATH = '/v1/fetchSchoolSearch';

export function searchPath(q: Query, withState: boolean, r: Rng): string {
  let path = `${SEARCH_PATH}?query=${encodeURIComponent(q.q)}`;
  if (withState && q.state) path += `&stateCode=${q.state}`;
  // Mostly first pages of 25, as a typeahead asks; now and then a second page or a short page.
  const u = r();
  if (u < 0.1) path += '&offset=25';
  else if (u < 0.2) path += '&limit=10';
  return path;
}
