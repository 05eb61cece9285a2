// Searches a store's catalog as the API would (its engine, freshly built), for tests that check
// what an import left behind without starting an app.
import type { Store } from '../../src/domain/store.port.ts';
import type { EnginePage } from '../../src/domain/search/engine.port.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { MemorySearchEngine } from '../../src/search/memory/memory.engine.ts';

export async function searchStore(
  store: Store,
  query: string,
  options: { state?: string; offset?: number; limit?: number } = {},
): Promise<EnginePage> {
  const engine = new MemorySearchEngine(store.schools, { refreshMs: 0 });
  await engine.start();
  try {
    return await engine.search({
      plan: planQuery(query),
      stateCode: options.state,
      offset: options.offset ?? 0,
      limit: options.limit ?? 25,
    });
  } finally {
    engine.close();
  }
}

/** Names of the first page, best first. */
export async function namesFound(
  store: Store,
  query: string,
  options: { state?: string; limit?: number } = {},
): Promise<string[]> {
  return (await searchStore(store, query, options)).hits.map((h) => h.school.name);
}

/**
 * How long after now `engine` takes to find `query` (its total above 0), polled every 5 ms for at
 * most 10 s: a delta's latency as a second instance sees it. `found`: the total it last saw.
 */
export async function searchableAfter(
  engine: Pick<MemorySearchEngine, 'search'>,
  query: string,
): Promise<{ ms: number; found: number }> {
  const started = performance.now();
  const total = async () => (await engine.search({ plan: planQuery(query), offset: 0, limit: 1 })).total;
  let found = await total();
  while (found === 0 && performance.now() - started < 10_000) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    found = await total();
  }
  return { ms: performance.now() - started, found };
}
