// The engine alone, inside the server process, without HTTP: how long each query class takes on
// the in-process index, and what the request-log append of every metered search costs. Run after
// the load, so it does not warm the caches the load is measured with.
import type { RequestLog } from '../../src/domain/metering/metering.ports.ts';
import type { SearchEngine } from '../../src/domain/search/engine.port.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import type { SearchRequest } from '../../src/domain/search/engine.port.ts';
import { percentile } from './load.ts';
import type { ProbeFigures } from './server-process.ts';

const spread = (ms: readonly number[]) => {
  const sorted = Float64Array.from(ms).sort();
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : 0,
  };
};

/** Every query once, then all of them again; sequential, as the service calls the engine. */
export async function probeEngine(
  engine: SearchEngine,
  queries: Record<string, readonly SearchRequest[]>,
): Promise<Record<string, ProbeFigures>> {
  const out: Record<string, ProbeFigures> = {};
  for (const [cls, list] of Object.entries(queries)) {
    const passes: number[][] = [[], []];
    const totals: number[] = [];
    for (const pass of passes) {
      for (const q of list) {
        const started = performance.now();
        const page = await engine.search({
          plan: planQuery(q.query),
          stateCode: q.stateCode,
          level: q.level,
          type: q.type,
          near: q.near,
          radiusKm: q.radiusKm,
          offset: q.offset,
          limit: q.limit,
        });
        pass.push(performance.now() - started);
        if (pass === passes[0]) totals.push(page.total);
      }
    }
    const sortedTotals = Float64Array.from(totals).sort();
    out[cls] = {
      queries: list.length,
      first: spread(passes[0]!),
      again: spread(passes[1]!),
      medianMatches: percentile(sortedTotals, 50),
      maxMatches: sortedTotals.length ? sortedTotals[sortedTotals.length - 1]! : 0,
    };
  }
  return out;
}

/** 200 request-log appends, one after the other (each one durable before the next). */
export async function probeAppend(requests: RequestLog, userId: string): Promise<{ p50: number; p99: number }> {
  const ms: number[] = [];
  for (let i = 0; i < 200; i++) {
    const started = performance.now();
    await requests.append({
      id: crypto.randomUUID(),
      userId,
      requestMade: 'search_schools:bench-probe',
      timeMade: new Date(),
      cost: 0,
    });
    ms.push(performance.now() - started);
  }
  const { p50, p99 } = spread(ms);
  return { p50, p99 };
}
