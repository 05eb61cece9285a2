// K-12 schools as people look for them: a namesake ("Lincoln Elementary School" is the name of
// hundreds) told apart by its state or by its city typed after the name; abbreviations typed for
// the words of the name, or the words typed for a name published abbreviated ("SMITH EL",
// "ALBERTVILLE ELEM SCH"); and names published ALL CAPS.
import { fold, words } from '../../src/domain/shared/normalize.ts';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { one, type Rng } from '../bench/random.ts';
import type { Probe } from './probe.ts';
import { namesakeKey } from './namesakes.ts';

export interface K12Context {
  readonly r: Rng;
  readonly sample: <T>(items: readonly T[]) => T[];
  /** Schools of the same name (canonical key), in `state` when given. */
  readonly namesakes: (s: CatalogSchool, state?: string) => Set<string>;
}

/** The name as a user types it: lower case, and half the time without a last word "School" ("lincoln elementary"). */
export function typed(name: string, r: Rng): string {
  const lower = name.toLowerCase().replace(/[.,]/g, '');
  const short = lower.replace(/\s+school$/, '');
  return short !== lower && short.split(/\s+/).length >= 2 && r() < 0.5 ? short : lower;
}

/** Schools whose name is also another school's, in another city. */
export function withNamesakes(k12: readonly CatalogSchool[]): CatalogSchool[] {
  const cities = new Map<string, Set<string>>();
  for (const s of k12) {
    const key = namesakeKey(s.name);
    cities.set(key, (cities.get(key) ?? new Set()).add(`${fold(s.city)}|${s.state}`));
  }
  return k12.filter((s) => (cities.get(namesakeKey(s.name))?.size ?? 0) >= 2);
}

/** A namesake's name with its state as the filter: any school of that name in the state will do. */
export function namesakeStateProbes(k12: readonly CatalogSchool[], { r, sample, namesakes }: K12Context): Probe[] {
  return sample(withNamesakes(k12)).map((s) => ({
    text: typed(s.name, r),
    state: s.state,
    target: s,
    accept: namesakes(s, s.state),
  }));
}

/** A namesake's name and its city ("lincoln elementary omaha"), no filter: any school of that name in a city of that name will do. */
export function namesakeCityProbes(k12: readonly CatalogSchool[], { r, sample, namesakes }: K12Context): Probe[] {
  const byId = new Map(k12.map((s) => [s.id, s]));
  // A city that is a word of the name ("Russell Middle School", Russell) adds nothing typed after it.
  const tells = (s: CatalogSchool) => {
    const name = new Set(words(s.name));
    return !words(s.city).every((w) => name.has(w));
  };
  return sample(withNamesakes(k12).filter(tells)).map((s) => {
    const city = fold(s.city);
    const accept = new Set([...namesakes(s)].filter((id) => fold(byId.get(id)?.city ?? '') === city));
    return { text: `${typed(s.name, r)} ${s.city.toLowerCase()}`, target: s, accept };
  });
}

/**
 * Rewrites of a K-12 name: the abbreviation typed for words of the name, or the words typed for
 * an abbreviation the directory wrote. Each [kind, pattern, replacement].
 */
const REWRITES: readonly (readonly [string, RegExp, string])[] = [
  ['High School as hs', /\bHigh School\b/i, 'hs'],
  ['Middle School as ms', /\bMiddle School\b/i, 'ms'],
  ['Elementary as elem', /\bElementary\b/i, 'elem'],
  ['Junior High as jr high', /\bJunior High\b/i, 'jr high'],
  ['Academy as acad', /\bAcademy\b/i, 'acad'],
  ['Preparatory as prep', /\bPreparatory\b/i, 'prep'],
  ['P.S. n as ps n', /\bP\.\s?S\.\s*(\d+)/i, 'ps $1'],
  ['PS n as p.s. n', /\bPS\s*(\d+)/i, 'p.s. $1'],
  ['Elem as elementary', /\bElem\b\.?/i, 'elementary'],
  ['El as elementary', /(?<=\S)\s+El$/i, ' elementary'],
  ['H S as high school', /\bH\.?\s?S\b\.?/i, 'high school'],
  ['MS as middle school', /\bM\.?S\b\.?(?!\s*\d)/, 'middle school'],
  ['JHS as junior high school', /\bJ\.?H\.?S\b\.?/i, 'junior high school'],
  ['Sch as school', /\bSch\b\.?/i, 'school'],
  ['Jr as junior', /\bJr\b\.?(?= High)/i, 'junior'],
  ['Acad as academy', /\bAcad\b\.?/i, 'academy'],
  ['Ctr as center', /\bCtr\b\.?/i, 'center'],
];

/** A K-12 name with one of its words abbreviated as people type it, or one of its abbreviations written out. */
export function k12AbbreviationProbes(k12: readonly CatalogSchool[], { r, sample, namesakes }: K12Context): Probe[] {
  const rewritesOf = (name: string) => REWRITES.filter(([, from]) => from.test(name));
  return sample(k12.filter((s) => rewritesOf(s.name).length > 0)).map((s) => {
    const [kind, from, to] = one(r, rewritesOf(s.name));
    return { text: s.name.replace(from, to).toLowerCase(), target: s, accept: namesakes(s), kind };
  });
}

/** A name the directory published ALL CAPS, typed as people type it: lower case, without its dots and commas, with the state. */
export function allCapsProbes(
  k12: readonly CatalogSchool[],
  allCaps: ReadonlySet<string>,
  { sample, namesakes }: K12Context,
): Probe[] {
  return sample(k12.filter((s) => allCaps.has(s.id))).map((s) => ({
    text: s.name.toLowerCase().replace(/[.,]/g, ''),
    state: s.state,
    target: s,
    accept: namesakes(s, s.state),
  }));
}
