// How long request records are kept (REQUEST_RETENTION_DAYS): by default every record, for good.
// With N days, the records of today and the N days before it are kept, in whole UTC days, and
// older ones are deleted by a periodic purge started in every instance (RequestLog.purgeBefore,
// which is idempotent; MongoDB lets one instance at a time do it). Usage totals and the per-day
// chart keep counting what was made; the history's total counts the records kept, which are read
// as if the purge had run already.
import type { RequestLog } from './metering.ports.ts';

const DAY_MS = 86_400_000;

/** The most days a usage chart shows, today included (the contract's maximum of fetchMyUsage's `days`). */
export const LONGEST_USAGE_CHART_DAYS = 366;

export interface RetentionPolicy {
  /** The first UTC day (YYYY-MM-DD) whose records are kept at `now`; undefined when every record is. */
  keptFrom(now: Date): string | undefined;
}

export const KEEP_EVERYTHING: RetentionPolicy = { keptFrom: () => undefined };

/** Keeps today's records and those of the `days` (≥ 1) UTC days before it. */
export function keepDays(days: number): RetentionPolicy {
  return {
    keptFrom: (now) =>
      new Date(Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00.000Z`) - days * DAY_MS)
        .toISOString()
        .slice(0, 10),
  };
}

/** Deletes the records the policy no longer keeps; how many. Nothing when it keeps every one. */
export async function purgeExpired(requests: RequestLog, policy: RetentionPolicy, now: Date): Promise<number> {
  const keptFrom = policy.keptFrom(now);
  return keptFrom === undefined ? 0 : requests.purgeBefore(keptFrom);
}
