// The engine alone, without HTTP: the shape of the seeded catalog, the time of each query class on
// the search engine, and the cost of the request log append every metered search makes.
import type { Store } from '../../src/domain/ports.ts';
import type { SearchEngine } from '../../src/domain/search/engine.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { fmt, out, table } from './format.ts';
import { percentile } from './load.ts';
import { CLASSES, type Query, type QueryClass } from './queries.ts';

export interface StoreFigures {
  readonly p50: number;
  readonly max: number;
  readonly medianTotal: number;
  readonly maxTotal: number;
}

/** Prints the share of the catalog that a few very common words match. */
export async function catalogShape(engine: SearchEngine, inserted: number): Promise<void> {
  const shares: string[] = [];
  for (const word of ['school', 'elementary', 'high', 'university', 'saint', 'ecole']) {
    const { total } = await engine.search({ plan: planQuery(word), offset: 0, limit: 1 });
    shares.push(`${word} ${fmt((100 * total) / inserted, 1)}%`);
  }
  out(`catalog shape, share of schools matching: ${shares.join(', ')}`);
}

/** Store alone, sequential, no HTTP and no metering: where the time of a query class goes. */
export async function storeSearch(
  engine: SearchEngine,
  queries: Readonly<Record<QueryClass, readonly Query[]>>,
): Promise<Record<string, StoreFigures>> {
  out();
  out('engine only (in-process index, sequential, first page of 25, no stateCode):');
  const storeRows: string[][] = [];
  const storeFigures: Record<string, StoreFigures> = {};
  for (const cls of CLASSES) {
    const list = queries[cls].slice(0, 40);
    const ms: number[] = [];
    const totals: number[] = [];
    for (const pass of [0, 1]) {
      for (const q of list) {
        const started = performance.now();
        const page = await engine.search({ plan: planQuery(q.q), offset: 0, limit: 25 });
        if (pass === 1) {
          ms.push(performance.now() - started);
          totals.push(page.total);
        }
      }
    }
    const sortedMs = Float64Array.from(ms).sort();
    const sortedTotals = Float64Array.from(totals).sort();
    const f = {
      p50: percentile(sortedMs, 50),
      max: sortedMs[sortedMs.length - 1] ?? 0,
      medianTotal: percentile(sortedTotals, 50),
      maxTotal: sortedTotals[sortedTotals.length - 1] ?? 0,
    };
    storeFigures[cls] = f;
    storeRows.push([cls, String(list.length), fmt(f.p50, 2), fmt(f.max, 2), String(f.medianTotal), String(f.maxTotal)]);
  }
  out(table(['class', 'queries', 'p50 ms', 'max ms', 'median matches', 'max matches'], storeRows, 1));
  return storeFigures;
}

/**
 * What one metered search writes: a record and the user's totals, fsync'd (synchronous=FULL).
 * Prints and returns the median of 200 appends, in ms.
 */
export async function appendLatency(store: Store, userId: string): Promise<number> {
  const appendMs: number[] = [];
  for (let i = 0; i < 200; i++) {
    const started = performance.now();
    await store.requests.append({ id: crypto.randomUUID(), userId, requestMade: 'search_schools:bench', timeMade: new Date(), cost: 0 });
    appendMs.push(performance.now() - started);
  }
  const appendP50 = percentile(Float64Array.from(appendMs).sort(), 50);
  out(`request log append (one fsync'd transaction, as every search does), p50 of 200: ${fmt(appendP50, 2)} ms`);
  return appendP50;
}
