// The query classes of the quality benchmark, built from the catalog with a fixed seed: what
// users type when they look for a school they know, each class a way of typing it.
import { fold, words } from '../../src/domain/shared/normalize.ts';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { mulberry32, one, shuffle, type Rng } from '../bench/random.ts';
import { famousProbes, initialismProbes, nicknameProbes } from './college-classes.ts';
import { namesakeKey } from './namesakes.ts';
import { FLAGSHIPS } from './flagships.ts';
import type { Probe } from './probe.ts';
import { cutProbes, literalProbes, wordOrderProbes } from './spelling-classes.ts';
import { filterProbes, namesakesNearProbes, type FilterProbe } from './nearby-classes.ts';

export type { Probe };
import {
  allCapsProbes,
  k12AbbreviationProbes,
  namesakeCityProbes,
  namesakeStateProbes,
  type K12Context,
} from './k12-classes.ts';

export interface RankClass {
  readonly name: string;
  readonly kind: 'rank';
  /** Success: the school is within the first `at`. */
  readonly at: 1 | 5;
  readonly target: number;
  readonly probes: readonly Probe[];
}

export interface CityClass {
  readonly name: 'city';
  readonly kind: 'city';
  readonly target: number;
  /** A city, and every school in it. */
  readonly cities: readonly { readonly city: string; readonly schools: ReadonlySet<string> }[];
}

/** Filtered searches: every hit obeys the filters and the total is the reference engine's (nearby-classes.ts). */
export interface FilterClass {
  readonly name: string;
  readonly kind: 'filter';
  readonly target: number;
  readonly probes: readonly FilterProbe[];
}

export type QueryClass = RankClass | CityClass | FilterClass;

/** At most this many probes per class (sampled with the seed): enough for a stable share, quick to run. */
const SAMPLE = 1500;

export interface ClassOptions {
  readonly seed?: number;
  /** The colleges' ids (the IPEDS seed's): the college classes draw from them. */
  readonly colleges?: ReadonlySet<string>;
  /** The ids of the K-12 schools, when the catalog has them: the K-12 classes are built only then. */
  readonly k12?: ReadonlySet<string>;
  /** The ids of the schools whose name was published ALL CAPS. */
  readonly allCaps?: ReadonlySet<string>;
}

export function buildClasses(catalog: readonly CatalogSchool[], options: ClassOptions = {}): QueryClass[] {
  const r = mulberry32(options.seed ?? 20261123);
  const byName = new Map<string, CatalogSchool[]>();
  for (const s of catalog) {
    const key = namesakeKey(s.name);
    const list = byName.get(key);
    if (list) list.push(s);
    else byName.set(key, [s]);
  }
  const context: Context = {
    r,
    sample: (items) => shuffle(items, r).slice(0, SAMPLE),
    namesakes: (s, state) =>
      new Set(
        (byName.get(namesakeKey(s.name)) ?? [s])
          .filter((n) => state === undefined || n.state === state)
          .map((n) => n.id),
      ),
    only: (s) => new Set([s.id]),
    df: documentFrequency(catalog),
  };
  // In this order: each class draws from the one random sequence.
  const exact = exactProbes(catalog, context);
  const prefix = prefixProbes(catalog, context);
  const typo = typoProbes(catalog, context);
  const accents = accentProbes(catalog, context);
  const abbreviations = abbreviationProbes(catalog, context);
  const shortWords = shortWordProbes(catalog, context);
  const stateCode = stateCodeProbes(catalog, context);
  const extraWord = extraWordProbes(catalog, context);
  const flagships = flagshipProbes(catalog);
  const cityClass = cityProbes(catalog);
  return [
    { name: 'exact', kind: 'rank', at: 1, target: 0.99, probes: exact },
    { name: 'prefix', kind: 'rank', at: 5, target: 0.97, probes: prefix },
    { name: 'one-typo', kind: 'rank', at: 1, target: 0.9, probes: typo },
    { name: 'accents', kind: 'rank', at: 1, target: 0.98, probes: accents },
    { name: 'abbreviations', kind: 'rank', at: 1, target: 0.95, probes: abbreviations },
    { name: 'short-words', kind: 'rank', at: 5, target: 0.9, probes: shortWords },
    { name: 'stateCode', kind: 'rank', at: 1, target: 0.95, probes: stateCode },
    cityClass,
    { name: 'flagships', kind: 'rank', at: 1, target: 1, probes: flagships },
    { name: 'extra-word', kind: 'rank', at: 1, target: 0, probes: extraWord },
    ...collegeClasses(catalog, options),
    ...k12Classes(catalog, options, context),
    // Issue 42, items 1–3: each on its own seed (spelling-classes.ts).
    { name: 'literal-first', kind: 'rank', at: 1, target: 0.98, probes: literalProbes(catalog) },
    { name: 'word-order-articles', kind: 'rank', at: 1, target: 0.97, probes: wordOrderProbes(catalog) },
    { name: 'every-word-cut', kind: 'rank', at: 1, target: 0.9, probes: cutProbes(catalog) },
    { name: 'every-word-cut-top5', kind: 'rank', at: 5, target: 0.98, probes: cutProbes(catalog) },
    // Their own sequence: drawn last, and moving no other class's probes.
    { name: 'filters', kind: 'filter', target: 1, probes: filterProbes(catalog, mulberry32(FILTER_SEED), 200, 6) },
  ];
}

/** The filter class's seed; 200 probes from 6 states keep the reference engine's brute force to seconds. */
const FILTER_SEED = 20261126;

/** Colleges by nickname, acronym and web name (hand-written), and by the initials of their name. */
function collegeClasses(catalog: readonly CatalogSchool[], options: ClassOptions): QueryClass[] {
  const classes: QueryClass[] = [
    { name: 'nicknames', kind: 'rank', at: 1, target: 0.97, probes: nicknameProbes(catalog) },
  ];
  if (options.colleges) {
    const probes = initialismProbes(catalog, options.colleges);
    classes.push({ name: 'initialisms', kind: 'rank', at: 1, target: 0.95, probes });
  }
  // Issue 42, item 4: only where the catalog has K-12 namesakes beside the colleges.
  const famous = famousProbes(catalog);
  if (famous.length > 0)
    classes.push({ name: 'famous-before-namesakes', kind: 'rank', at: 1, target: 0.97, probes: famous });
  return classes;
}

/** The K-12 classes, when the catalog has K-12 schools (drawn after the others: their probes do not move). */
function k12Classes(catalog: readonly CatalogSchool[], options: ClassOptions, context: Context): QueryClass[] {
  if (!options.k12 || options.k12.size === 0) return [];
  const k12 = catalog.filter((s) => options.k12!.has(s.id));
  const c: K12Context = context;
  const classes: QueryClass[] = [
    { name: 'k12-namesakes-state', kind: 'rank', at: 5, target: 0.95, probes: namesakeStateProbes(k12, c) },
    { name: 'k12-namesakes-city', kind: 'rank', at: 5, target: 0.95, probes: namesakeCityProbes(k12, c) },
    { name: 'k12-abbreviations', kind: 'rank', at: 5, target: 0.95, probes: k12AbbreviationProbes(k12, c) },
  ];
  const caps = allCapsProbes(k12, options.allCaps ?? new Set(), c);
  if (caps.length > 0) classes.push({ name: 'k12-all-caps', kind: 'rank', at: 5, target: 0.95, probes: caps });
  const near = namesakesNearProbes(k12, c);
  if (near.length > 0) classes.push({ name: 'k12-namesakes-near', kind: 'rank', at: 1, target: 0.95, probes: near });
  return classes;
}

/** What every class's probes are drawn with: the seeded random sequence, the sample, and which schools count as the answer. */
interface Context {
  readonly r: () => number;
  readonly sample: <T>(items: readonly T[]) => T[];
  /** The school and every other one of the same name (in `state`, when given). */
  readonly namesakes: (s: CatalogSchool, state?: string) => Set<string>;
  readonly only: (s: CatalogSchool) => Set<string>;
  /** How many schools have each word in their name. */
  readonly df: Map<string, number>;
}

/** The name as written, or in lower case. */
function exactProbes(catalog: readonly CatalogSchool[], { r, sample, namesakes }: Context) {
  return sample(catalog).map((s) => ({
    text: r() < 0.5 ? s.name : s.name.toLowerCase(),
    target: s,
    accept: namesakes(s),
  }));
}

function prefixProbes(catalog: readonly CatalogSchool[], { r, sample, namesakes }: Context) {
  // Typed up to the middle of the name's last word: the rest of the name written, the school's
  // distinguishing word begun (2 letters at least: shorter is the short-words class). Any school
  // of the same name will do: what was typed cannot tell them apart (a real catalog has hundreds
  // of "Jefferson Elementary School").
  return sample(catalog).flatMap((s) => {
    const cut = s.name.search(/\p{L}{3,}[^\p{L}]*$/u);
    if (cut <= 0) return [];
    const last = s.name.slice(cut).match(/^\p{L}+/u)![0];
    const keep = 2 + Math.floor(r() * (last.length - 2));
    return [{ text: s.name.slice(0, cut + keep).toLowerCase(), target: s, accept: namesakes(s) }];
  });
}

/** One word of five letters or more misspelled once. */
function typoProbes(catalog: readonly CatalogSchool[], { r, sample, namesakes }: Context) {
  const typoKinds = ['substitution', 'deletion', 'insertion', 'transposition'] as const;
  return sample(catalog).flatMap((s) => {
    const tokens = s.name.split(' ');
    const candidates = tokens.map((t, i) => ({ t, i })).filter(({ t }) => /^\p{L}{5,}$/u.test(t));
    if (candidates.length === 0) return [];
    const { t, i } = one(r, candidates);
    const kind = one(r, typoKinds);
    const typed = misspell(t.toLowerCase(), kind, r);
    if (typed === t.toLowerCase()) return [];
    const text = tokens.map((w, j) => (j === i ? typed : w.toLowerCase())).join(' ');
    return [{ text, target: s, accept: namesakes(s), kind }];
  });
}

/** Names with accents typed without them, and in capitals. */
function accentProbes(catalog: readonly CatalogSchool[], { namesakes }: Context) {
  const accented = catalog.filter((s) => /[^\p{ASCII}]/u.test(s.name));
  return accented.flatMap((s) => [
    { text: stripAccents(s.name), target: s, accept: namesakes(s), kind: 'typed without accents' },
    { text: s.name.toUpperCase(), target: s, accept: namesakes(s), kind: 'typed in capitals, accents kept' },
  ]);
}

/** A word of the name abbreviated, or an abbreviation written out. */
function abbreviationProbes(catalog: readonly CatalogSchool[], { r, sample, namesakes }: Context) {
  return sample(catalog.filter((s) => rewrites(s.name).length > 0)).map((s) => {
    const [kind, text] = one(r, rewrites(s.name));
    return { text, target: s, accept: namesakes(s), kind };
  });
}

/** Two words: the rarest of the name, and one or two letters of its neighbour (any school of the same name will do). */
function shortWordProbes(catalog: readonly CatalogSchool[], { r, sample, namesakes, df }: Context) {
  // The schools of each word, to find those the typed text matches exactly as well as the target.
  const byWord = new Map<string, CatalogSchool[]>();
  for (const s of catalog) for (const w of new Set(words(s.name))) byWord.set(w, [...(byWord.get(w) ?? []), s]);
  return sample(catalog).flatMap((s) => {
    const ws = words(s.name);
    if (ws.length < 2) return [];
    // The name's rarest word, and the start of the word after it (or before it, when it is the last).
    let rarest = 0;
    for (let i = 0; i < ws.length; i++) if (df.get(ws[i]!)! < df.get(ws[rarest]!)!) rarest = i;
    const letters = 1 + Math.floor(r() * 2);
    const after = rarest + 1 < ws.length;
    const word = ws[rarest]!;
    const start = (after ? ws[rarest + 1]! : ws[rarest - 1]!).slice(0, letters);
    const text = after ? `${word} ${start}` : `${start} ${word}`;
    // On a national catalog "walnut c" is Walnut Creek, Walnut Canyon and Walnut Corner alike:
    // every school whose name has the word next to a word of that start, on the same side, is
    // as good an answer as the target (as namesakes are), since nothing typed tells them apart.
    const alike = (byWord.get(word) ?? []).filter((other) => {
      const ow = words(other.name);
      return ow.some((w, i) => w === word && (after ? ow[i + 1] : ow[i - 1])?.startsWith(start));
    });
    return [{ text, target: s, accept: new Set([...namesakes(s), ...alike.map((o) => o.id)]) }];
  });
}

/** The name, with its state as the filter. */
function stateCodeProbes(catalog: readonly CatalogSchool[], { sample, namesakes }: Context) {
  return sample(catalog).map((s) => ({
    text: s.name,
    state: s.state,
    target: s,
    accept: namesakes(s, s.state),
  }));
}

/** The name with a word more: "the" first, the city after, or a word no school has. */
function extraWordProbes(catalog: readonly CatalogSchool[], { r, sample, namesakes }: Context) {
  return sample(catalog).map((s) => {
    const [kind, text] = one(r, [
      ['"the" first', `the ${s.name}`],
      ['the city after', `${s.name} ${s.city}`],
      ['a word no school has', `${s.name} zyxw`],
    ] as const);
    return { text: text.toLowerCase(), target: s, accept: namesakes(s), kind };
  });
}

/** The flagships of FLAGSHIPS, by the query people type for them (a directory may list one twice: "Mcgill University"). */
function flagshipProbes(catalog: readonly CatalogSchool[]) {
  const byFoldedName = new Map<string, CatalogSchool[]>();
  for (const s of catalog) byFoldedName.set(fold(s.name), [...(byFoldedName.get(fold(s.name)) ?? []), s]);
  return FLAGSHIPS.map((f) => {
    const same = byFoldedName.get(fold(f.name));
    if (!same) throw new Error(`flagship "${f.name}" is not in the catalog`);
    return { text: f.query, target: same[same.length - 1]!, accept: new Set(same.map((s) => s.id)) };
  });
}

/** Every city with three schools or more: how many of its schools the first page shows. */
function cityProbes(catalog: readonly CatalogSchool[]): CityClass {
  const cities = new Map<string, Set<string>>();
  for (const s of catalog) cities.set(fold(s.city), (cities.get(fold(s.city)) ?? new Set()).add(s.id));
  const cityNames = new Map(catalog.map((s) => [fold(s.city), s.city]));
  return {
    name: 'city',
    kind: 'city',
    target: 0.9,
    cities: [...cities]
      .filter(([, ids]) => ids.size >= 3)
      .map(([key, schools]) => ({ city: cityNames.get(key)!, schools })),
  };
}

function documentFrequency(catalog: readonly CatalogSchool[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const s of catalog) for (const w of new Set(words(s.name))) df.set(w, (df.get(w) ?? 0) + 1);
  return df;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One edit of the given kind at a random place (the first letter included). */
export function misspell(
  word: string,
  kind: 'substitution' | 'deletion' | 'insertion' | 'transposition',
  r: Rng,
): string {
  const at = Math.floor(r() * word.length);
  switch (kind) {
    case 'substitution': {
      let c = one(r, [...LETTERS]);
      while (c === word[at]) c = one(r, [...LETTERS]);
      return word.slice(0, at) + c + word.slice(at + 1);
    }
    case 'deletion':
      return word.slice(0, at) + word.slice(at + 1);
    case 'insertion':
      return word.slice(0, at) + one(r, [...LETTERS]) + word.slice(at);
    case 'transposition': {
      const i = Math.min(at, word.length - 2);
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    }
  }
}

function stripAccents(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '');
}

/** The ways this name may be typed with its abbreviations and punctuation written otherwise. */
export function rewrites(name: string): Array<readonly [string, string]> {
  const out: Array<readonly [string, string]> = [];
  const add = (kind: string, from: RegExp, to: string) => {
    if (from.test(name)) out.push([kind, name.replace(from, to)] as const);
  };
  add('& as and', / & /g, ' and ');
  add('and as &', / and /gi, ' & ');
  add('A & M as A&M', /\bA & M\b/g, 'A&M');
  add('A & M as AM', /\bA & M\b/g, 'AM');
  add('Saint as St.', /\bSaint\b/g, 'St.');
  add('St. as Saint', /\bSt\.? /g, 'Saint ');
  add('Sainte as Ste', /\bSainte\b/g, 'Ste');
  add('Mount as Mt', /\bMount\b/g, 'Mt');
  add('Mt. as Mount', /\bMt\.? /g, 'Mount ');
  add('Community College as CC', /\bCommunity College\b/g, 'CC');
  add('University as Univ', /\bUniversity\b/g, 'Univ');
  add('hyphen as a space', /-/g, ' ');
  add('apostrophe left out', /['’]/g, '');
  return out;
}
