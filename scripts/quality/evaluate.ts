// Runs the query classes against a search engine and measures, per class, the share of probes
// whose school comes first (or within the first five), and for cities the share of a city's
// schools on the first page. Any engine of the SearchEngine port can be measured.
import type { SearchEngine } from '../../src/domain/search/engine.port.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { inScope } from '../../src/domain/search/filters.ts';
import type { FilterClass, Probe, QueryClass } from './classes.ts';

export interface ClassResult {
  readonly name: string;
  readonly measure: string;
  readonly count: number;
  /** The share the target is about (@1, @5 or page-1 share). */
  readonly value: number;
  readonly at1?: number;
  readonly at5?: number;
  readonly target: number;
  /** Per sub-kind: [kind, count, share]. */
  readonly kinds: readonly (readonly [string, number, number])[];
  /** Probes that missed, for reading. */
  readonly misses: readonly { readonly probe: Probe; readonly got: readonly string[] }[];
}

/**
 * `reference(state)`: the reference engine over one state's schools, which the filter class
 * checks totals against (without it, filter classes are left out).
 */
export async function evaluate(
  engine: SearchEngine,
  classes: readonly QueryClass[],
  reference?: (state: string) => SearchEngine,
): Promise<ClassResult[]> {
  const results: ClassResult[] = [];
  for (const cls of classes) {
    if (cls.kind === 'filter') {
      if (reference) results.push(await evaluateFilters(engine, cls, reference));
      continue;
    }
    if (cls.kind === 'city') {
      let sum = 0;
      const misses: ClassResult['misses'][number][] = [];
      for (const { city, schools } of cls.cities) {
        const page = await engine.search({ plan: planQuery(city), offset: 0, limit: 25 });
        const inCity = page.hits.filter((h) => schools.has(h.school.id)).length;
        const share = inCity / Math.min(25, schools.size);
        sum += share;
        if (share < 1)
          misses.push({
            probe: {
              text: city,
              target: { id: '', name: city, city, state: '', imageUrl: null, aliases: [], prominence: 0 },
              accept: schools,
            },
            got: page.hits.map((h) => `${h.school.name} (${h.school.city})`),
          });
      }
      results.push({
        name: cls.name,
        measure: 'page-1 share',
        count: cls.cities.length,
        value: sum / cls.cities.length,
        target: cls.target,
        kinds: [],
        misses,
      });
      continue;
    }
    let hit1 = 0;
    let hit5 = 0;
    const kinds = new Map<string, { n: number; ok: number }>();
    const misses: ClassResult['misses'][number][] = [];
    for (const probe of cls.probes) {
      const page = await engine.search({
        plan: planQuery(probe.text),
        stateCode: probe.state,
        ...probe.scope,
        offset: 0,
        limit: 5,
      });
      const rank = page.hits.findIndex((h) => probe.accept.has(h.school.id));
      const ok1 = rank === 0;
      const ok5 = rank >= 0 && rank < 5;
      if (ok1) hit1++;
      if (ok5) hit5++;
      const ok = cls.at === 1 ? ok1 : ok5;
      if (!ok) misses.push({ probe, got: page.hits.map((h) => `${h.school.name} (${h.school.state})`) });
      if (probe.kind) {
        const k = kinds.get(probe.kind) ?? { n: 0, ok: 0 };
        k.n++;
        if (ok) k.ok++;
        kinds.set(probe.kind, k);
      }
    }
    const n = cls.probes.length;
    results.push({
      name: cls.name,
      measure: `@${cls.at}`,
      count: n,
      value: (cls.at === 1 ? hit1 : hit5) / n,
      at1: hit1 / n,
      at5: hit5 / n,
      target: cls.target,
      kinds: [...kinds].map(([kind, k]) => [kind, k.n, k.ok / k.n] as const),
      misses,
    });
  }
  return results;
}

/** A filtered search is right when every school of its first page passes the filters and its total is the reference's. */
async function evaluateFilters(
  engine: SearchEngine,
  cls: FilterClass,
  reference: (state: string) => SearchEngine,
): Promise<ClassResult> {
  let ok = 0;
  const kinds = new Map<string, { n: number; ok: number }>();
  const misses: ClassResult['misses'][number][] = [];
  for (const probe of cls.probes) {
    const query = { plan: planQuery(probe.text), ...probe.scope, offset: 0, limit: 25 };
    const page = await engine.search(query);
    const expected = await reference(probe.scope.stateCode).search(query);
    const obey = page.hits.every((h) => inScope(h.school, probe.scope));
    const right = obey && page.total === expected.total;
    if (right) ok++;
    const k = kinds.get(probe.kind) ?? { n: 0, ok: 0 };
    k.n++;
    if (right) k.ok++;
    kinds.set(probe.kind, k);
    if (!right) {
      const { stateCode: _state, ...filters } = probe.scope;
      misses.push({
        probe: {
          text: `${probe.text} ${JSON.stringify(filters)}`,
          state: probe.scope.stateCode,
          target: {
            id: '',
            name: `total ${expected.total}`,
            city: '',
            state: '',
            imageUrl: null,
            aliases: [],
            prominence: 0,
          },
          accept: new Set(),
        },
        got: [`total ${page.total}`, obey ? 'every hit obeys' : 'a hit disobeys'],
      });
    }
  }
  const n = cls.probes.length;
  return {
    name: cls.name,
    measure: 'exact',
    count: n,
    value: n === 0 ? 1 : ok / n,
    target: cls.target,
    kinds: [...kinds].map(([kind, k]) => [kind, k.n, k.ok / k.n] as const),
    misses,
  };
}
