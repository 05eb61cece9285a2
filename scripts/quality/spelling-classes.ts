// Classes of the quality benchmark for how a name is spelled and typed (issue 42, items 1–3),
// built from the catalog, not from examples: where the directory's own spelling of a name meets
// an equivalent one (Elem. and Elementary, St. and Saint, with or without a leading "The", in
// another word order), French names published with their article last, and names typed fast with
// every word cut. Each draws from its own seeded sequence, after the other classes: no other
// class's probes move.
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { words } from '../../src/domain/shared/normalize.ts';
import { canonicalKey, readingOrder } from '../../src/domain/search/analysis.ts';
import { distinctiveKeys, namedAsTyped } from '../../src/domain/search/matching.ts';
import { canonicalWord, STOP_WORDS } from '../../src/domain/search/synonyms.ts';
import { mulberry32, shuffle } from '../bench/random.ts';
import { namesakeKey } from './namesakes.ts';
import type { Probe } from './probe.ts';

/** Probes per class, at most (sampled with the class's seed). */
const SAMPLE = 1500;

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The schools of each namesake key (namesakes.ts): what a typed name cannot tell apart but by its spelling. */
function byNamesakeKey(catalog: readonly CatalogSchool[]): Map<string, CatalogSchool[]> {
  const groups = new Map<string, CatalogSchool[]>();
  for (const s of catalog) push(groups, namesakeKey(s.name), s);
  return groups;
}

/**
 * The schools a typed name means, by the rules' definition (matching.ts, namedAsTyped): those
 * spelled as typed (their words, stop words kept, in order; with or without a last "School"; in
 * reading order when their article is last), and the ranked schools (colleges) one of whose
 * distinctive parts is spelled so ("duke" means *Duke University* as it means *Duke School*;
 * prominence decides between them).
 */
class Spellings {
  readonly #bySpelling = new Map<string, CatalogSchool[]>();
  readonly #rankedByKey = new Map<string, CatalogSchool[]>();

  constructor(catalog: readonly CatalogSchool[]) {
    for (const s of catalog) {
      const forms = new Set([words(s.name).join(' ')]);
      const list = words(s.name);
      if (list.length >= 2 && list[list.length - 1] === 'school') forms.add(list.slice(0, -1).join(' '));
      const reading = readingOrder(s.name);
      if (reading !== undefined) forms.add(words(reading).join(' '));
      for (const f of forms) push(this.#bySpelling, f, s);
      if (s.prominence > 0) for (const key of distinctiveKeys(s.name)) push(this.#rankedByKey, key, s);
    }
  }

  /** The ids of the schools `text` names as typed. */
  answers(text: string): Set<string> {
    const typed = words(text);
    const ids = new Set((this.#bySpelling.get(typed.join(' ')) ?? []).map((s) => s.id));
    for (const s of this.#rankedByKey.get(canonicalKey(text)) ?? [])
      if (namedAsTyped(typed, s.name, true)) ids.add(s.id);
    return ids;
  }
}

/**
 * A name typed as its directory spells it, where a namesake is spelled another way with the same
 * words meant ("Hillview Elementary" and "Hillview Elem.", "Saint Mary" and "St. Mary"): the school
 * so spelled (or another of that very spelling) must come first. Word order and a leading article
 * are the next class's.
 */
export function literalProbes(catalog: readonly CatalogSchool[], seed = 20261203): Probe[] {
  const r = mulberry32(seed);
  const spellings = new Spellings(catalog);
  const probes: Probe[] = [];
  for (const group of byNamesakeKey(catalog).values()) {
    if (group.length < 2) continue;
    for (const s of group) {
      // Another spelling of the same words, from the same first word: an abbreviation, a synonym
      // (another word order and a leading article are the next class's).
      const typed = words(s.name);
      if (!group.some((o) => words(o.name)[0] === typed[0] && words(o.name).join(' ') !== typed.join(' '))) continue;
      const text = r() < 0.5 ? s.name : s.name.toLowerCase();
      probes.push({ text, target: s, accept: spellings.answers(text) });
    }
  }
  return shuffle(probes, r).slice(0, SAMPLE);
}

/** A name's words but its stop words, each in its canonical form (synonyms.ts), in order. */
function canonicalOrder(name: string): string {
  return words(name)
    .filter((w) => !STOP_WORDS.has(w))
    .map(canonicalWord)
    .join(' ');
}

/**
 * A name with a leading article, typed with it ("The Greenvale School", where "Greenvale School"
 * is a namesake), or begun with it ("the laur" for *The Laurel School*: any school beginning so
 * will do); a name of another word order than a namesake's ("College of Wilmington" and
 * "Wilmington College"), typed as it is; a French name published with its article last, typed
 * in reading order ("l'étincelle" for "Étincelle, l'").
 */
export function wordOrderProbes(catalog: readonly CatalogSchool[], seed = 20261204): Probe[] {
  const r = mulberry32(seed);
  const groups = byNamesakeKey(catalog);
  const spellings = new Spellings(catalog);
  const probes: Probe[] = [];
  const namesakes = (s: CatalogSchool) => groups.get(namesakeKey(s.name)) ?? [s];
  // The names that begin with "the", by the first three letters of their next word.
  const withThe = new Map<string, CatalogSchool[]>();
  for (const s of catalog) {
    const ws = words(s.name);
    if (ws[0] === 'the' && ws[1]) push(withThe, ws[1].slice(0, 3), s);
  }
  for (const s of catalog) {
    const group = namesakes(s);
    const lower = s.name.toLowerCase();
    const ws = words(s.name);
    if (ws[0] === 'the' && ws.length >= 3) {
      if (group.some((o) => words(o.name)[0] !== 'the'))
        probes.push({ text: lower, target: s, accept: spellings.answers(lower), kind: 'a leading "the"' });
      const next = ws[1]!;
      if (next.length >= 5 && !STOP_WORDS.has(next)) {
        const cut = `the ${next.slice(0, 3 + Math.floor(r() * (next.length - 4)))}`;
        const begins = (withThe.get(next.slice(0, 3)) ?? []).filter((o) => fitsStart(words(o.name), words(cut)));
        if (begins.length <= 50)
          probes.push({ text: cut, target: s, accept: new Set(begins.map((o) => o.id)), kind: '"the" and a start' });
      }
    }
    // The same words in another order ("College of Wilmington", "Wilmington College"); an article
    // last is the next kind's.
    const order = canonicalOrder(s.name);
    if (
      readingOrder(s.name) === undefined &&
      group.some((o) => canonicalOrder(o.name) !== order && readingOrder(o.name) === undefined)
    )
      probes.push({ text: lower, target: s, accept: spellings.answers(lower), kind: 'another word order' });
    const reading = readingOrder(s.name);
    if (reading !== undefined) {
      const text = reading.toLowerCase();
      probes.push({ text, target: s, accept: spellings.answers(text), kind: 'article last, typed first' });
    }
  }
  // Each kind sampled on its own, so that the rarest are all measured.
  const kinds = new Map<string, Probe[]>();
  for (const p of probes) push(kinds, p.kind!, p);
  return [...kinds.values()].flatMap((list) => shuffle(list, r).slice(0, SAMPLE / 4));
}

/** Whether a name's first words are the typed ones, the last typed word a start of its word. */
function fitsStart(name: readonly string[], typed: readonly string[]): boolean {
  if (name.length < typed.length) return false;
  return typed.every((w, i) => (i === typed.length - 1 ? name[i]!.startsWith(w) : name[i] === w));
}

/**
 * Names of two words or more typed fast, every word of four letters or more cut to its first
 * three letters or more ("hand hig sch" for *Handley High School*; words of three letters or
 * fewer typed whole). Every school whose name's words are as many, each beginning with the typed
 * word at its place, is as good an answer: nothing typed tells them apart.
 */
export function cutProbes(catalog: readonly CatalogSchool[], seed = 20261205): Probe[] {
  const r = mulberry32(seed);
  const significant = (name: string) => words(name).filter((w) => !STOP_WORDS.has(w));
  const byFirst = new Map<string, CatalogSchool[]>();
  for (const s of catalog) {
    const first = significant(s.name)[0]?.slice(0, 3);
    if (first) push(byFirst, first, s);
  }
  const candidates = catalog.filter((s) => {
    const ws = significant(s.name);
    return ws.length >= 2 && ws.length <= 5 && ws.some((w) => w.length >= 4);
  });
  return shuffle(candidates, r)
    .slice(0, SAMPLE)
    .map((s) => {
      const cut = significant(s.name).map((w) =>
        w.length <= 3 ? w : w.slice(0, 3 + Math.floor(r() * (w.length - 3))),
      );
      const alike = (byFirst.get(cut[0]!.slice(0, 3)) ?? []).filter((o) => {
        const ow = significant(o.name);
        return ow.length === cut.length && cut.every((c, i) => ow[i]!.startsWith(c));
      });
      return { text: cut.join(' '), target: s, accept: new Set([s.id, ...alike.map((o) => o.id)]) };
    });
}
