// Colleges as people call them: the hand-written nicknames (nicknames.ts), and the initialisms of
// colleges' names drawn from the catalog.
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { fold, words } from '../../src/domain/shared/normalize.ts';
import { canonicalKey, canonicalKeyOfWords } from '../../src/domain/search/analysis.ts';
import { equalNameKeys, nameStarts, nameWords } from '../../src/domain/search/matching.ts';
import { GENERIC_WORDS, STOP_WORDS } from '../../src/domain/search/synonyms.ts';
import { initialisms } from '../../src/import/college-aliases.ts';
import type { Probe } from './probe.ts';
import { NICKNAMES } from './nicknames.ts';

/** The nicknames, each with its kind: a short form of the name's words, or an acronym or web name. */
export function nicknameProbes(catalog: readonly CatalogSchool[]): Probe[] {
  const byFoldedName = new Map(catalog.map((s) => [fold(s.name), s]));
  return NICKNAMES.map((n) => {
    const target = byFoldedName.get(fold(n.name));
    if (!target) throw new Error(`nickname "${n.query}": "${n.name}" is not in the catalog`);
    const kind = /\s/.test(n.query) || words(target.name).includes(n.query) ? 'short form' : 'acronym or web name';
    return { text: n.query, target, accept: new Set([target.id]), kind };
  });
}

/** Prominence from which a college is known well enough for people to type its initials (R2 four-year colleges and up). */
const KNOWN = 60;

/**
 * The initialism of a well-known college's name ("sdsu"), where no other college of the catalog
 * has the same one (then it names none of them) and it is no word of a college's name.
 */
export function initialismProbes(catalog: readonly CatalogSchool[], colleges: ReadonlySet<string>): Probe[] {
  const inCatalog = catalog.filter((s) => colleges.has(s.id));
  const owners = new Map<string, number>();
  for (const s of inCatalog) for (const a of initialisms(s.name)) owners.set(a, (owners.get(a) ?? 0) + 1);
  const vocabulary = new Set(inCatalog.flatMap((s) => words(s.name)));
  return inCatalog
    .filter((s) => s.prominence >= KNOWN)
    .flatMap((s) => {
      const a = initialisms(s.name)[0];
      if (!a || owners.get(a) !== 1 || vocabulary.has(a)) return [];
      return [{ text: a, target: s, accept: new Set([s.id]) }];
    });
}

/** Prominence from which a college is famous enough to be meant before a school that merely starts with its words. */
const FAMOUS = 50;
/** The longest run of a famous college's words a probe types. */
const FAMOUS_RUN = 3;

/**
 * Famous before namesakes (issue 42, item 4): a run of one to three words of a famous college's
 * name, not from one of its starts, with a word that is not generic ("naval academy" of the United
 * States Naval Academy), that begins the longer name of an unranked school (a K-12 namesake:
 * Naval Academy Primary School). Left out where another rule decides: the run is some school's
 * name or alternative name (equality), a ranked school's name starts with it (at its first word or
 * a campus), or the college is not the one most prominent ranked school holding it. Typed as the
 * run's words; one probe per college, its longest such run.
 */
export function famousProbes(catalog: readonly CatalogSchool[]): Probe[] {
  const run = (list: readonly string[], at: number, n: number) => canonicalKeyOfWords(list.slice(at, at + n));
  const unrankedStarts = new Set<string>();
  const rankedStarts = new Set<string>();
  const equal = new Set<string>();
  // Every run of each ranked school's words, with the most prominent school holding it (a tie: none).
  const holders = new Map<string, { best: CatalogSchool | undefined; prominence: number }>();
  for (const s of catalog) {
    const ranked = s.prominence > 0;
    const list = nameWords(s.name);
    for (const k of equalNameKeys(s.name, ranked)) equal.add(k);
    equal.add(canonicalKey(s.name));
    for (const a of s.aliases) equal.add(canonicalKey(a));
    for (const at of ranked ? nameStarts(s.name, list) : [0])
      for (let n = 1; n <= FAMOUS_RUN && at + n <= list.length; n++)
        if (ranked || at + n < list.length) (ranked ? rankedStarts : unrankedStarts).add(run(list, at, n));
    if (!ranked) continue;
    for (let at = 0; at < list.length; at++)
      for (let n = 1; n <= FAMOUS_RUN && at + n <= list.length; n++) {
        const k = run(list, at, n);
        const h = holders.get(k);
        if (h?.best === s) continue;
        if (!h || s.prominence > h.prominence) holders.set(k, { best: s, prominence: s.prominence });
        else if (s.prominence === h.prominence) h.best = undefined;
      }
  }
  const probes: Probe[] = [];
  for (const s of catalog) {
    if (s.prominence < FAMOUS) continue;
    const list = nameWords(s.name);
    let chosen: string | undefined;
    for (let at = 1; at < list.length; at++)
      for (let n = 1; n <= FAMOUS_RUN && at + n <= list.length; n++) {
        const part = list.slice(at, at + n);
        const k = run(list, at, n);
        if (part.every((w) => GENERIC_WORDS.has(w) || STOP_WORDS.has(w) || w.length < 3)) continue;
        if (!unrankedStarts.has(k) || rankedStarts.has(k) || equal.has(k)) continue;
        if (holders.get(k)?.best !== s) continue;
        if (!chosen || k.length > chosen.length) chosen = part.join(' ');
      }
    if (chosen) probes.push({ text: chosen, target: s, accept: new Set([s.id]) });
  }
  return probes;
}
