// The end check, once the load has stopped: for every user, the account's usage and the whole
// request history read back page by page (limit 25) must hold exactly the searches that were
// answered 200, no more, no fewer, each tid once. The history can be paged up to offset 10,000
// (the contract's deep-paging guard): past that, only the count is compared. The pages must also
// be in the contract's order, newest first (ttimemade descending, ties by tid descending).
import type { Client } from './http.ts';
import type { UserState } from './load.ts';

/** The contract's largest offset and page. */
const MAX_OFFSET = 10_000;
const PAGE = 25;

export interface UserCheck {
  readonly email: string;
  readonly expected: number;
  /** fetchMyRequests total_count, fetchMyData usage.request_count and total_cost. */
  total: number;
  requestCount: number;
  totalCost: number;
  /** Records read back, and how they compare with the tids received. */
  read: number;
  missing: number;
  phantom: number;
  duplicates: number;
  /** Neighbouring records out of order. */
  unordered: number;
  /** Whether every record could be read (total_count <= 10,025). */
  complete: boolean;
  readonly problems: string[];
}

export function userOk(c: UserCheck): boolean {
  return (
    c.problems.length === 0 &&
    c.total === c.expected &&
    c.requestCount === c.expected &&
    c.totalCost === c.expected &&
    c.missing === 0 &&
    c.phantom === 0 &&
    c.duplicates === 0 &&
    c.unordered === 0
  );
}

async function checkUser(client: Client, user: UserState): Promise<UserCheck> {
  const check: UserCheck = {
    email: user.email,
    expected: user.searches,
    total: -1,
    requestCount: -1,
    totalCost: -1,
    read: 0,
    missing: 0,
    phantom: 0,
    duplicates: 0,
    unordered: 0,
    complete: false,
    problems: [],
  };
  const get = async <T>(path: string): Promise<T | undefined> => {
    try {
      const reply = await client.send('GET', path, { token: user.token });
      if (reply.status === 200) return JSON.parse(reply.body) as T;
      check.problems.push(`${path} answered ${reply.status}: ${reply.body.slice(0, 200)}`);
    } catch (error) {
      check.problems.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return undefined;
  };

  const account = await get<{ usage: { request_count: number; total_cost: number } }>('/v1/fetchMyData');
  if (account) {
    check.requestCount = account.usage.request_count;
    check.totalCost = account.usage.total_cost;
  }
  const stored = new Set<string>();
  let previous: { tid: string; ttimemade: string } | undefined;
  for (let offset = 0; offset <= MAX_OFFSET; offset += PAGE) {
    const page = await get<{ total_count: number; requests: Array<{ tid: string; ttimemade: string }> }>(
      `/v1/fetchMyRequests?offset=${offset}&limit=${PAGE}`,
    );
    if (!page) return check;
    if (check.total === -1) check.total = page.total_count;
    else if (page.total_count !== check.total)
      check.problems.push(`total_count changed from ${check.total} to ${page.total_count} at offset ${offset}`);
    for (const record of page.requests) {
      const { tid } = record;
      if (
        previous &&
        !(previous.ttimemade > record.ttimemade || (previous.ttimemade === record.ttimemade && previous.tid > tid))
      ) {
        check.unordered++;
        if (check.unordered <= 3)
          check.problems.push(
            `out of order: ${JSON.stringify(previous)} before ${JSON.stringify({ tid, ttimemade: record.ttimemade })}`,
          );
      }
      previous = record;
      if (stored.has(tid)) check.duplicates++;
      else if (!user.tids.has(tid)) check.phantom++;
      stored.add(tid);
    }
    check.read += page.requests.length;
    if (page.requests.length < PAGE || offset + PAGE >= page.total_count) break;
  }
  check.complete = check.read === check.total;
  if (check.complete) for (const tid of user.tids) if (!stored.has(tid)) check.missing++;
  return check;
}

/** Every user's check, `concurrency` users at a time. */
export async function verifyRecords(
  client: Client,
  users: readonly UserState[],
  concurrency: number,
): Promise<UserCheck[]> {
  const checks: UserCheck[] = new Array(users.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < users.length; i = next++) checks[i] = await checkUser(client, users[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, users.length) }, worker));
  return checks;
}
