// Colleges as people call them: the hand-written nicknames (nicknames.ts), and the initialisms of
// colleges' names drawn from the catalog.
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { fold, words } from '../../src/domain/shared/normalize.ts';
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
