// The names people type for a college that its directory row does not spell: the name of its web
// address ("umich" for umich.edu, "pitt" for pitt.edu) and the initialisms of its name ("nyu",
// "sdsu", "ucla"). Derived at import, from the whole file at once, so that a college's own web
// name is never another college's initialism ("usc" is usc.edu's, not the University of South
// Carolina's). They become alternative names: a query that is one of them finds the college first
// (alias equality), and prominence decides among colleges sharing one (the campuses under
// umich.edu).
import { words } from '../domain/shared/normalize.ts';
import { GENERIC_WORDS, STOP_WORDS } from '../domain/search/synonyms.ts';

export interface College {
  readonly name: string;
  /** The directory's web address as written ("www.umich.edu/", "https://www.pitt.edu"), if any. */
  readonly web?: string | undefined;
  /** The directory's own alternative names ("Ole Miss": olemiss.edu is its web name). */
  readonly aliases?: readonly string[] | undefined;
}

/**
 * Public suffixes under which a registrable name sits, longest first: "cc.ca.us" (California's
 * community colleges), "k12.xx.us", a state's ".us" zone, a country's "edu.xx" and the generic
 * top-level domains.
 */
const PUBLIC_SUFFIXES: readonly RegExp[] = [
  /\.(?:cc|k12|state|edu|lib|tec|dst|co|ci)\.[a-z]{2}\.us$/,
  /\.[a-z]{2}\.us$/,
  /\.(?:edu|com|org|net|ac|co|gob|gov)\.[a-z]{2}$/,
  /\.[a-z]{2,}$/,
];

/** Labels too general to name one college. */
const NOT_A_NAME: ReadonlySet<string> = new Set([
  'www',
  'web',
  'home',
  'online',
  'edu',
  'school',
  'college',
  'university',
]);

/**
 * The registrable label of a web address: "https://www.umich.edu/dearborn" → "umich",
 * "bmcc.cuny.edu" → "cuny" (a college under its system's domain shares the system's name;
 * prominence puts the main campus first). Undefined when there is no usable host.
 */
export function webName(address: string | undefined): string | undefined {
  const host = (address ?? '')
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .split(/[/?#:]/)[0]!
    .replace(/\.$/, '');
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host)) return undefined;
  const suffix = PUBLIC_SUFFIXES.find((s) => s.test(host));
  if (!suffix) return undefined;
  const label = host.replace(suffix, '').split('.').pop()!;
  if (label.length < 2 || /^\d+$/.test(label) || NOT_A_NAME.has(label)) return undefined;
  return label;
}

/** Initialisms shorter than this are too ambiguous to be a name (two letters: the web name gives "bu"). */
const MIN_INITIALS = 3;
const MAX_INITIALS = 8;

/** The system part of a campus's name ("University of North Carolina" of "… at Chapel Hill"). */
const CAMPUS_SEPARATOR = /\s*[-\u2010-\u2014]\s*|\s+at\s+/iu;

/**
 * Initialisms of a name, stop words and "&" left out, single letters kept ("Texas A & M
 * University" → "tamu"): of the whole name ("University of California-Los Angeles" → "ucla",
 * "San Diego State University" → "sdsu") and of the system's name before a campus ("University
 * of North Carolina at Chapel Hill" → "unc"). Only of names whose words are letters, with a
 * generic word (University, College, Institute …): "Harvard" has no initialism; "Lincoln Land"
 * is no acronym.
 */
export function initialisms(name: string): string[] {
  const out = new Set<string>();
  const of = (text: string) => {
    const list = words(text).filter((w) => !STOP_WORDS.has(w));
    if (!list.some((w) => GENERIC_WORDS.has(w)) || list.some((w) => !/^\p{L}+$/u.test(w))) return;
    const initials = list.map((w) => w[0]!).join('');
    if (initials.length >= MIN_INITIALS && initials.length <= MAX_INITIALS) out.add(initials);
  };
  of(name);
  const system = name.split(CAMPUS_SEPARATOR)[0]!;
  if (system !== name) of(system);
  return [...out];
}

/**
 * Whether a web name is the college's: its letters, in order, from the start of one of the name's
 * words ("umich" in "University of Michigan", "gatech" in "Georgia Institute of Technology"). A
 * college's web address is sometimes its district's or its owner's ("washington.k12.mo.us" for a
 * career center): that name is not one people type for it.
 */
export function webNameFits(web: string, name: string): boolean {
  const letters = web.replace(/[^a-z]/g, '');
  if (letters.length === 0) return false;
  const list = words(name);
  const text = list.join('');
  let at = 0;
  for (const w of list) {
    if (w[0] === letters[0]) {
      let k = 0;
      for (let i = at; i < text.length && k < letters.length; i++) if (text[i] === letters[k]) k++;
      if (k === letters.length) return true;
    }
    at += w.length;
  }
  return false;
}

/** Campus names that name no place. */
const NOT_A_CAMPUS: ReadonlySet<string> = new Set(['main', 'campus', 'online', 'global']);

/**
 * A campus's system (its words, stop words left out) and its campus (its words), split at the
 * campus separator: undefined for a name without a system that has a generic word and is letters
 * only, two words at least, and a campus that names a place.
 */
function systemAndCampus(name: string): { system: string[]; campus: string[] } | undefined {
  const match = CAMPUS_SEPARATOR.exec(name);
  if (!match) return undefined;
  const system = words(name.slice(0, match.index)).filter((w) => !STOP_WORDS.has(w));
  const campus = words(name.slice(match.index + match[0].length));
  if (!system.some((w) => GENERIC_WORDS.has(w)) || system.some((w) => !/^\p{L}+$/u.test(w))) return undefined;
  if (campus.length === 0 || campus.every((w) => NOT_A_CAMPUS.has(w) || STOP_WORDS.has(w))) return undefined;
  if (system.length < 2) return undefined;
  return { system, campus };
}

/**
 * A campus called by its system's initials and its own name, as people write it ("uw madison" for
 * "University of Wisconsin-Madison", "ut austin", "unc chapel hill"): two letters are enough
 * here, the campus tells the systems apart. Undefined for a name without a system and a campus.
 */
export function campusForm(name: string): string | undefined {
  const split = systemAndCampus(name);
  return split && `${split.system.map((w) => w[0]).join('')} ${split.campus.join(' ')}`;
}

/**
 * The short forms of campus systems that the directory's own alternative names teach: a campus
 * called "<one word> <its campus>" ("UMass Dartmouth" for "University of Massachusetts-
 * Dartmouth", "UMass Amherst") says what its system is called ("umass", whose letters are the
 * system's, in order: webNameFits), by system. What a short
 * form is for its siblings: "umass boston" for "University of Massachusetts-Boston", whose own
 * row lists only "UMB".
 */
export function systemShortForms(colleges: readonly College[]): Map<string, Set<string>> {
  const forms = new Map<string, Set<string>>();
  for (const c of colleges) {
    const split = systemAndCampus(c.name);
    if (!split) continue;
    for (const alias of c.aliases ?? []) {
      const list = words(alias);
      const short = list[0];
      const system = split.system.join(' ');
      if (
        short === undefined ||
        list.length !== split.campus.length + 1 ||
        !/^\p{L}{2,8}$/u.test(short) ||
        split.system.includes(short) ||
        // Its letters are the system's ("umass": University of MASSachusetts), not a state's or a
        // branch's code ("PMTX-Austin" of Paul Mitchell the School, "OUAZ-Phoenix" of Ottawa University).
        !webNameFits(short, system) ||
        list.slice(1).some((w, i) => w !== split.campus[i])
      )
        continue;
      forms.set(system, (forms.get(system) ?? new Set()).add(short));
    }
  }
  return forms;
}

/**
 * The derived alternative names of each college of a directory, in its order: its web name when
 * it fits the name or one of its alternative names (webNameFits), then its initialisms that are no other college's web name, no
 * other college's initialism (three colleges are "ubc": none of them is UBC) and no word of any
 * college's name ("las" of "Loraines Academy & Spa" would put it first for a user
 * typing "las vegas"), then its campus form (campusForm), then its campus after each short form
 * its system is known by (systemShortForms: "umass boston"). A name that is only words of the college's own name ("berkeley" for
 * berkeley.edu) is left out by the import's validation: it finds nothing the name does not.
 */
export function collegeAliases(colleges: readonly College[]): string[][] {
  const webNames = colleges.map((c) => {
    const web = webName(c.web);
    return web && [c.name, ...(c.aliases ?? [])].some((n) => webNameFits(web, n)) ? web : undefined;
  });
  const owners = new Map<string, Set<number>>();
  webNames.forEach((w, i) => {
    if (w) owners.set(w, (owners.get(w) ?? new Set()).add(i));
  });
  const vocabulary = new Set(colleges.flatMap((c) => words(c.name)));
  const initials = colleges.map((c) => initialisms(c.name));
  const forms = systemShortForms(colleges);
  const shared = new Map<string, number>();
  for (const list of initials) for (const a of list) shared.set(a, (shared.get(a) ?? 0) + 1);
  return colleges.map((_, i) => {
    const web = webNames[i];
    const taken = (a: string) => owners.has(a) && !owners.get(a)!.has(i);
    const derived = initials[i]!.filter(
      (a) => a !== web && !taken(a) && !vocabulary.has(a) && (shared.get(a) === 1 || owners.has(a)),
    );
    const campus = campusForm(colleges[i]!.name);
    const split = systemAndCampus(colleges[i]!.name);
    const own = new Set((colleges[i]!.aliases ?? []).map((a) => words(a).join(' ')));
    const short = [...(split ? (forms.get(split.system.join(' ')) ?? []) : [])]
      .map((form) => [form, ...split!.campus].join(' '))
      .filter((a) => a !== campus && !own.has(a));
    return [...(web ? [web] : []), ...derived, ...(campus ? [campus] : []), ...short];
  });
}
