// One operation measured as one client sees it: sequential requests on a keep-alive connection,
// a warm-up first, then the measured ones, each timed from sending to the last byte of its body.
// The first successful answer is checked (the right records, the right totals): a fast wrong
// answer is not a figure.
import type { Client } from '../../soak/http.ts';

export interface Operation {
  readonly name: string;
  readonly path: string;
  /** The p99 the operation must stay under, ms; none for a row shown for information. */
  readonly targetMs?: number | undefined;
  /** What is wrong with a 200 answer's body, or undefined when it is right. */
  check(body: unknown): string | undefined;
}

export interface OperationFigures {
  readonly operation: Operation;
  /** Measured requests (the warm-up's are not counted). */
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** Every answer's status, warm-up included. */
  readonly statuses: ReadonlyMap<number, number>;
  /** The first non-2xx answer's body, cut short: why it failed. */
  readonly refusal: string | undefined;
  /** What the body check found wrong, if anything. */
  readonly wrong: string | undefined;
}

/** Nearest rank: the smallest value that `p` % of the samples do not exceed. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export async function measure(
  client: Client,
  token: string,
  operation: Operation,
  warmup: number,
  samples: number,
): Promise<OperationFigures> {
  const statuses = new Map<number, number>();
  const times: number[] = [];
  let refusal: string | undefined;
  let wrong: string | undefined;
  let checked = false;
  for (let i = 0; i < warmup + samples; i++) {
    const reply = await client.send('GET', operation.path, { token });
    statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
    if (i >= warmup) times.push(reply.ms);
    if (reply.status < 200 || reply.status > 299) {
      refusal ??= reply.body.replace(/\s+/g, ' ').slice(0, 300);
    } else if (!checked) {
      checked = true;
      wrong = operation.check(JSON.parse(reply.body));
    }
  }
  times.sort((a, b) => a - b);
  return {
    operation,
    count: times.length,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: times.at(-1) ?? Number.NaN,
    statuses,
    refusal,
    wrong,
  };
}

/** Answers that are not 2xx, all of them (warm-up included). */
export function non2xx(figures: OperationFigures): number {
  let n = 0;
  for (const [status, count] of figures.statuses) if (status < 200 || status > 299) n += count;
  return n;
}
