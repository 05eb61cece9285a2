// The synthetic catalog: realistically shaped school names (very common words like "school" match
// most of it, invented surnames match one or two schools), drawn from the lists in names.ts.
import type { SchoolInput } from '../../src/domain/catalog/school-draft.ts';
import { STATE_CODES } from '../../src/domain/catalog/states.ts';
import {
  CANADA,
  CA_KINDS,
  CA_TOWNS,
  DESCRIPTIVE,
  FAMOUS,
  FIRST_NAMES,
  FR_FIRST,
  FR_LAST,
  FR_NAMED,
  PLACE_HEADS,
  PLACE_TAILS,
  QC_TOWNS,
  SAINTS,
  STATE_WEIGHT,
  SURNAMES,
  SYLLABLES,
  US_KINDS,
  US_TOWNS,
} from './names.ts';
import { one, weighted, type Rng } from './random.ts';

interface Named {
  readonly name: string;
  readonly city: string;
  readonly aliases?: string[];
}

const rareSurname = (r: Rng): string => {
  const n = r() < 0.6 ? 2 : 3;
  let s = '';
  for (let i = 0; i < n; i++) s += one(r, SYLLABLES);
  return s[0]!.toUpperCase() + s.slice(1);
};

/** "Mount Vernon" → "Mt. Vernon" now and then, as directories write it both ways. */
function abbreviate(r: Rng, place: string): string {
  if (r() > 0.35) return place;
  return place
    .replace(/^Saint /, 'St. ')
    .replace(/^Mount /, 'Mt. ')
    .replace(/^Fort /, 'Ft. ');
}

const usPlace = (r: Rng): string =>
  abbreviate(r, r() < 0.55 ? one(r, US_TOWNS) : one(r, PLACE_HEADS) + one(r, PLACE_TAILS));

function person(r: Rng): string {
  const u = r();
  if (u < 0.5) return one(r, FAMOUS);
  const title = r() < 0.04 ? 'Dr. ' : '';
  const last = u < 0.83 ? one(r, r() < 0.3 ? FAMOUS : SURNAMES) : rareSurname(r);
  if (u > 0.92) return last; // an invented surname on its own
  const first = one(r, FIRST_NAMES);
  if (r() < 0.25) return `${title}${first} ${String.fromCharCode(65 + Math.floor(r() * 26))}. ${last}`;
  return `${title}${first} ${last}`;
}

function acronym(name: string): string {
  return name
    .split(/[\s-]+/)
    .filter((w) => /^\p{Lu}/u.test(w))
    .map((w) => w[0])
    .join('');
}

function postsecondary(r: Rng, city: string, canadian: boolean): Named {
  const place = r() < 0.7 ? city : usPlace(r);
  const pattern = weighted<(p: string) => string>([
    [(p) => `University of ${p}`, 3],
    [(p) => `${p} State University`, canadian ? 0 : 2],
    [(p) => `${p} University`, 2],
    [() => `${person(r)} University`, 1],
    [(p) => `${p} Community College`, canadian ? 0.5 : 4],
    [(p) => `${p} College`, 3],
    [(p) => `${p} Technical College`, 2],
    [(p) => `${p} Institute of Technology`, 1],
    [(p) => `${p} School of Nursing`, 1],
    [(p) => `${p} Beauty Academy`, 1.5],
    [() => `${person(r)} Beauty School`, 1],
    [(p) => `${p} Bible College`, 0.5],
    [(p) => `${p} Christian University`, 0.5],
    [(p) => `College of ${p}`, 0.8],
    [(p) => `${p} Theological Seminary`, 0.4],
    [(p) => `${p} A&M University`, canadian ? 0 : 0.1],
  ])(r);
  const name = pattern(place);
  const short = acronym(name);
  return { name, city, aliases: r() < 0.4 && short.length >= 2 ? [short] : [] };
}

function catholic(r: Rng, city: string): Named {
  const saint = one(r, SAINTS);
  const name = weighted<() => string>([
    [() => `Saint ${saint} ${one(r, ['School', 'Catholic School', 'Academy', 'Parish School'])}`, 3],
    [() => `St. ${saint}'s ${one(r, ['School', 'Academy', 'Elementary School'])}`, 3],
    [() => `St. ${saint} ${one(r, ['Catholic School', 'School', 'High School'])}`, 3],
    [
      () =>
        `Our Lady of ${one(r, ['Lourdes', 'Guadalupe', 'Mercy', 'Peace', 'Perpetual Help', 'the Lake', 'Grace', 'Sorrows', 'Fatima', 'Mount Carmel'])} School`,
      2,
    ],
    [
      () =>
        `Holy ${one(r, ['Family', 'Cross', 'Trinity', 'Spirit', 'Rosary', 'Name', 'Redeemer', 'Angels'])} ${one(r, ['School', 'Catholic School', 'Academy'])}`,
      2,
    ],
    [
      () =>
        one(r, [
          'Sacred Heart School',
          'Immaculate Conception School',
          'Mount St. Joseph Academy',
          'Bishop McNamara High School',
        ]),
      1,
    ],
  ])(r)();
  return { name, city };
}

function usSchool(r: Rng): Named {
  const city = usPlace(r);
  const u = r();
  if (u < 0.055) return postsecondary(r, city, false);
  if (u < 0.1) return catholic(r, city);
  const kind = US_KINDS(r);
  const v = r();
  let name: string;
  if (v < 0.45) name = `${r() < 0.6 ? city : usPlace(r)} ${kind}`;
  else if (v < 0.77) name = `${person(r)} ${kind}`;
  else if (v < 0.83) name = `${person(r)} ${usPlace(r)} ${kind}`;
  else if (v < 0.93) name = `${one(r, DESCRIPTIVE)} ${kind}`;
  else
    name = `${city} ${one(r, ['Area', 'Regional', 'Community', 'County', 'Township', 'Consolidated', 'Unified'])} ${kind}`;
  // Directories keep former names; a few schools carry one.
  const aliases = r() < 0.02 ? [`${person(r)} ${kind}`] : [];
  return { name, city, aliases };
}

function frenchName(r: Rng): string {
  const u = r();
  if (u < 0.5) return one(r, FR_NAMED);
  if (u < 0.9) return `${one(r, FR_FIRST)}-${one(r, FR_LAST)}`;
  return `${one(r, FR_FIRST)}-${rareSurname(r)}`;
}

function quebecSchool(r: Rng): Named {
  const city = one(r, QC_TOWNS);
  if (r() < 0.15) return r() < 0.2 ? postsecondary(r, city, true) : { name: `${usPlace(r)} ${CA_KINDS(r)}`, city };
  const name = weighted<() => string>([
    [() => `École secondaire ${frenchName(r)}`, 25],
    [() => `École primaire ${frenchName(r)}`, 20],
    [() => `École ${frenchName(r)}`, 25],
    [() => `Polyvalente ${frenchName(r)}`, 3],
    [() => `Collège ${frenchName(r)}`, 4],
    [() => `Académie ${frenchName(r)}`, 2],
    [() => `Cégep de ${city}`, 1.5],
    [() => `Université de ${city}`, 0.4],
    [() => `Centre de formation professionnelle de ${city}`, 1],
  ])(r)();
  return { name, city };
}

function canadianSchool(r: Rng, state: string): Named {
  const city = r() < 0.6 ? one(r, CA_TOWNS) : usPlace(r);
  const u = r();
  if (u < 0.04) return postsecondary(r, city, true);
  if (u < 0.1 && (state === 'ON' || state === 'NB' || state === 'MB')) {
    return { name: `École ${one(r, ['élémentaire', 'secondaire', 'secondaire catholique'])} ${frenchName(r)}`, city };
  }
  if (u < 0.16) return catholic(r, city);
  const kind = CA_KINDS(r);
  const v = r();
  if (v < 0.5) return { name: `${r() < 0.6 ? city : usPlace(r)} ${kind}`, city };
  if (v < 0.8) return { name: `${person(r)} ${kind}`, city };
  return { name: `${one(r, DESCRIPTIVE)} ${kind}`, city };
}

export function makeCatalog(n: number, r: Rng): SchoolInput[] {
  const stateOf = weighted([...STATE_CODES].map((c) => [c, STATE_WEIGHT[c] ?? 1] as const));
  const out: SchoolInput[] = [];
  for (let i = 0; i < n; i++) {
    const state = stateOf(r);
    const s = state === 'QC' ? quebecSchool(r) : CANADA.has(state) ? canadianSchool(r, state) : usSchool(r);
    out.push({
      schoolname: s.name,
      city: s.city,
      stateprovince: state,
      aliases: s.aliases,
      image_url: r() < 0.03 ? `https://images.example.org/logos/${i}.png` : undefined,
      sourceKey: `bench:${i}`,
    });
  }
  return out;
}
