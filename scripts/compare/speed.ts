// The speed half of `npm run bench:compare`: a large catalog (the committed IPEDS seed and the
// Canadian sample, topped up to N schools with the bench's synthetic catalog), the timed query
// classes drawn from it, and the measurement of one engine: build time, memory of the built index,
// and per class the latency of search() run sequentially. Each engine is measured in a child
// process of its own (node --expose-gc), so the memory delta is that engine's alone.
import { draftSchool } from '../../src/domain/catalog/school-draft.ts';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { fold, words } from '../../src/domain/shared/normalize.ts';
import { planQuery, type SearchPlan } from '../../src/domain/search/query.ts';
import { makeCatalog } from '../bench/catalog.ts';
import { mulberry32, one } from '../bench/random.ts';
import { loadCatalog } from '../quality/catalog.ts';
import { misspell } from '../quality/classes.ts';

/** The real schools, then synthetic ones up to `schools` in all (fewer real ones when `schools` is smaller). */
export async function speedCatalog(schools: number, seed: number): Promise<CatalogSchool[]> {
  const real = (await loadCatalog()).slice(0, schools);
  const rows: CatalogSchool[] = [...real];
  const seen = new Set(rows.map((s) => s.id));
  for (const input of makeCatalog(Math.max(0, schools - real.length), mulberry32(seed))) {
    const drafted = draftSchool(input);
    if (!drafted.ok || seen.has(drafted.draft.id)) continue;
    seen.add(drafted.draft.id);
    // The synthetic catalog has no prominence (0, as an import without the column) and no logo.
    rows.push({ ...drafted.draft, imageUrl: null });
  }
  // Through JSON and back, as a store's read would hand them: the generated names are V8 cons
  // strings (pieces concatenated), which the first engine to read them would flatten, freeing
  // tens of MB and skewing that engine's memory figure; read rows are flat strings.
  return JSON.parse(JSON.stringify(rows)) as CatalogSchool[];
}

export const SPEED_CLASSES = ['prefix-1', 'prefix-2-4', 'common', 'distinctive', 'multi-word', 'one-typo'] as const;
export type SpeedClass = (typeof SPEED_CLASSES)[number];

export const SPEED_CLASS_HELP: Record<SpeedClass, string> = {
  'prefix-1': "one letter: the first letter of a word of a name ('s')",
  'prefix-2-4': "the first 2-4 letters of a word of a name ('lin', 'mont')",
  common: "school, college, university, saint, 'community college'",
  distinctive: 'the rarest word (4+ letters) of a name, whole',
  'multi-word': "2-3 consecutive words of a name, the last one cut ('saint mary aca')",
  'one-typo': "a 5+ letter word of a name with one edit ('wahsington')",
};

const COMMON = ['school', 'college', 'university', 'saint', 'community college'];

export interface SpeedQuery {
  readonly cls: SpeedClass;
  readonly text: string;
  readonly plan: SearchPlan;
  readonly stateCode?: string | undefined;
  readonly offset: number;
  readonly limit: number;
}

/**
 * `perClass` queries per class drawn from the catalog with the seed, each asked twice: without a
 * stateCode and with the state of the school it was drawn from. Most ask for the first page of
 * 25; one in five for a later page, at an offset up to 500.
 */
export function speedQueries(
  rows: readonly Pick<CatalogSchool, 'name' | 'state'>[],
  perClass: number,
  seed: number,
): SpeedQuery[] {
  const r = mulberry32(seed);
  const df = new Map<string, number>();
  for (const s of rows) for (const w of new Set(words(s.name))) df.set(w, (df.get(w) ?? 0) + 1);
  const offset = () => (r() < 0.8 ? 0 : 25 * (1 + Math.floor(r() * 20)));
  const out: SpeedQuery[] = [];
  const add = (cls: SpeedClass, text: string, state: string) => {
    for (const withState of [false, true]) {
      out.push({
        cls,
        text,
        plan: planQuery(text),
        stateCode: withState ? state : undefined,
        offset: offset(),
        limit: 25,
      });
    }
  };
  const wordOf = (s: Pick<CatalogSchool, 'name'>, min: number): string | undefined => {
    const ws = words(s.name).filter((w) => w.length >= min && /^\p{L}+$/u.test(w));
    return ws.length > 0 ? one(r, ws) : undefined;
  };
  const draw = (cls: SpeedClass, make: (s: Pick<CatalogSchool, 'name' | 'state'>) => string | undefined) => {
    for (let n = 0; n < perClass; ) {
      const s = one(r, rows);
      const text = make(s);
      if (text === undefined) continue;
      add(cls, text, s.state);
      n++;
    }
  };
  draw('prefix-1', (s) => wordOf(s, 1)?.slice(0, 1));
  draw('prefix-2-4', (s) => {
    const w = wordOf(s, 3);
    return w?.slice(0, Math.min(w.length - 1, 2 + Math.floor(r() * 3)));
  });
  for (let i = 0; i < perClass; i++) add('common', COMMON[i % COMMON.length]!, one(r, rows).state);
  draw('distinctive', (s) => {
    const ws = words(s.name).filter((w) => w.length >= 4 && /^\p{L}+$/u.test(w));
    if (ws.length === 0) return undefined;
    return ws.reduce((a, b) => (df.get(b)! < df.get(a)! ? b : a));
  });
  draw('multi-word', (s) => {
    const ws = fold(s.name)
      .split(/\s+/)
      .filter((w) => w.length > 0);
    if (ws.length < 2) return undefined;
    const take = 2 + Math.floor(r() * 2);
    const start = Math.floor(r() * Math.max(1, ws.length - take + 1));
    const part = ws.slice(start, start + take);
    if (part.length < 2) return undefined;
    const last = part[part.length - 1]!;
    if (last.length > 1) part[part.length - 1] = last.slice(0, 1 + Math.floor(r() * (last.length - 1)));
    return part.join(' ');
  });
  draw('one-typo', (s) => {
    const w = wordOf(s, 5);
    if (w === undefined) return undefined;
    const typed = misspell(w, one(r, ['substitution', 'deletion', 'insertion', 'transposition'] as const), r);
    return typed === w ? undefined : typed;
  });
  return out;
}

export interface Timed {
  /** Called before each query, outside the timing (the in-process index: a fresh, empty word cache). */
  prepare?(q: SpeedQuery): void;
  search(q: SpeedQuery): { total: number; materialized?: number; graded?: number };
}

export interface ClassTiming {
  readonly cls: SpeedClass;
  readonly queries: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** Mean number of matches (the page's total). */
  readonly meanTotal: number;
  /** In-process index only: documents graded per answer (its walk's work, which the machine's load does not change), mean and most. */
  readonly meanGraded?: number;
  readonly maxGraded?: number;
  /** MiniSearch only: mean results built, scored and sorted per answer, and the share of answers that built more than the page asked for. */
  readonly meanMaterialized?: number;
  readonly beyondPage?: number;
  /** The same latencies split: the queries without a stateCode, and with one. */
  readonly withoutState: { readonly p50: number; readonly p99: number };
  readonly withState: { readonly p50: number; readonly p99: number };
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/**
 * One timed pass over the queries, sequentially; figures per class. `bestOf` > 1: each query is
 * asked that many times (prepared afresh each time) and its least time kept: on a shared machine
 * a query that waited for a CPU is timed again, so a percentile says what the engine costs.
 */
export function timePass(engine: Timed, queries: readonly SpeedQuery[], bestOf = 1): ClassTiming[] {
  const by = new Map<
    SpeedClass,
    {
      ms: number[];
      state: boolean[];
      total: number;
      materialized: number;
      beyond: number;
      counted: boolean;
      graded: number[];
    }
  >();
  for (const q of queries) {
    let ms = Number.POSITIVE_INFINITY;
    let page: ReturnType<Timed['search']> | undefined;
    for (let run = 0; run < bestOf; run++) {
      engine.prepare?.(q);
      const t0 = performance.now();
      page = engine.search(q);
      ms = Math.min(ms, performance.now() - t0);
    }
    if (!page) throw new Error('bestOf must be at least 1');
    const e = by.get(q.cls) ?? { ms: [], state: [], total: 0, materialized: 0, beyond: 0, counted: false, graded: [] };
    if (page.graded !== undefined) e.graded.push(page.graded);
    e.ms.push(ms);
    e.state.push(q.stateCode !== undefined);
    e.total += page.total;
    if (page.materialized !== undefined) {
      e.counted = true;
      e.materialized += page.materialized;
      if (page.materialized > Math.min(page.total, q.offset + q.limit)) e.beyond++;
    }
    by.set(q.cls, e);
  }
  return SPEED_CLASSES.filter((c) => by.has(c)).map((cls) => {
    const e = by.get(cls)!;
    const sorted = [...e.ms].sort((a, b) => a - b);
    const n = sorted.length;
    const split = (withState: boolean) => {
      const part = e.ms.filter((_, i) => e.state[i] === withState).sort((a, b) => a - b);
      return { p50: percentile(part, 0.5), p99: percentile(part, 0.99) };
    };
    return {
      cls,
      queries: n,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      max: sorted[n - 1]!,
      meanTotal: e.total / n,
      ...(e.counted ? { meanMaterialized: e.materialized / n, beyondPage: e.beyond / n } : {}),
      ...(e.graded.length > 0
        ? { meanGraded: e.graded.reduce((a, b) => a + b, 0) / e.graded.length, maxGraded: Math.max(...e.graded) }
        : {}),
      withoutState: split(false),
      withState: split(true),
    };
  });
}

/** Heap and array buffers in use after two full collections (node --expose-gc). */
export function usedMemory(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}
