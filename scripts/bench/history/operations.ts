// The operations the history bench measures, for the heavy user of the seeded store, with what
// a right answer holds. The targets: fetchMyData and the first and last pages of the history
// answer in under 50 ms at p99 however long the history. The deepest page `offset` reaches and
// the usage chart are shown without a target.
import type { Operation } from './measure.ts';
import type { Seeded } from './seed.ts';

export const TARGET_P99_MS = 50;
/** The page size the dashboard asks for, and the contract's largest. */
const LIMIT = 25;
/** The contract caps `offset` at 10,000: its deepest full page starts here. */
const DEEPEST_OFFSET = 10_000 - LIMIT;

interface HistoryBody {
  readonly total_count?: number;
  readonly next_cursor?: string | null;
  readonly requests?: ReadonlyArray<{ readonly tid?: string }>;
}

const ids = (body: HistoryBody) => (body.requests ?? []).map((r) => r.tid);

function page(body: unknown, total: number, size: number): string | undefined {
  const b = body as HistoryBody;
  if (b.total_count !== total) return `total_count ${String(b.total_count)}, not ${total}`;
  if (ids(b).length !== size) return `${ids(b).length} records, not ${size}`;
  return undefined;
}

export function historyOperations(seeded: Seeded): Operation[] {
  const total = seeded.userRecords;
  const usage = (days: number): Operation => ({
    name: `fetchMyUsage, ${days} days`,
    path: `/v1/fetchMyUsage?days=${days}`,
    check(body) {
      const list = (body as { days?: ReadonlyArray<{ request_count?: number }> }).days ?? [];
      const sum = list.reduce((n, d) => n + (d.request_count ?? 0), 0);
      if (list.length !== days) return `${list.length} days, not ${days}`;
      return sum > 0 && sum <= total ? undefined : `${sum} requests over ${days} days`;
    },
  });
  return [
    {
      name: 'fetchMyData',
      path: '/v1/fetchMyData',
      targetMs: TARGET_P99_MS,
      check(body) {
        const b = body as { userId?: string; usage?: { request_count?: number } };
        if (b.userId !== seeded.user.userId) return `userId ${String(b.userId)}`;
        return b.usage?.request_count === total
          ? undefined
          : `request_count ${String(b.usage?.request_count)}, not ${total}`;
      },
    },
    {
      name: `fetchMyRequests, first page (limit ${LIMIT})`,
      path: `/v1/fetchMyRequests?limit=${LIMIT}`,
      targetMs: TARGET_P99_MS,
      check(body) {
        const first = ids(body as HistoryBody)[0];
        return (
          page(body, total, LIMIT) ??
          (first === seeded.newestId ? undefined : `starts with ${String(first)}, not the newest record`)
        );
      },
    },
    {
      name: `fetchMyRequests, offset ${DEEPEST_OFFSET} (deepest by offset)`,
      path: `/v1/fetchMyRequests?offset=${DEEPEST_OFFSET}&limit=${LIMIT}`,
      check: (body) => page(body, total, LIMIT),
    },
    {
      name: `fetchMyRequests, last page (cursor, ${LIMIT} oldest)`,
      path: `/v1/fetchMyRequests?limit=${LIMIT}&cursor=${seeded.lastPageCursor}`,
      targetMs: TARGET_P99_MS,
      check(body) {
        const b = body as HistoryBody;
        const wrong = page(body, total, LIMIT);
        if (wrong) return wrong;
        if (ids(b).join() !== seeded.lastPageIds.join()) return 'not the 25 oldest records, newest first';
        return b.next_cursor === null ? undefined : 'next_cursor is not null after the oldest record';
      },
    },
    usage(30),
    usage(366),
  ];
}
