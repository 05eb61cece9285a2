// The load: `connections` loops, each sending one request at a time until the deadline, every
// request for a user picked at random (so one user's searches are written concurrently). Mostly
// searches; some reads of the caller's history and account; a few logins (real argon2 at the
// OWASP cost: a login costs tens of ms of CPU, so they are kept to about 1%).
//
// Besides latency and status, it keeps what the end check needs: per user, the searches answered
// 200 and every `apirequest.tid` received. Answers are checked on the way (a search's record
// echoes the query as sent, a state filter holds, a page is no longer than its limit, no tid is
// seen twice, the history read after a 200 search includes it): a broken answer is an anomaly.
import type { Client, Reply } from './http.ts';
import { mulberry32, one, weighted } from '../bench/random.ts';
import { searchPath, type SearchQuery } from './queries.ts';
import type { SoakUser } from './server.ts';

export const OPERATIONS = ['search', 'fetchMyRequests', 'fetchMyData', 'login'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** Share of the requests, in percent. */
export const MIX: Record<Operation, number> = { search: 88, fetchMyRequests: 5.5, fetchMyData: 5.5, login: 1 };

export interface UserState extends SoakUser {
  token: string;
  /** Searches answered 200, and their tids. */
  searches: number;
  readonly tids: Set<string>;
  /** Searches sent and not yet answered: they may or may not be in the history already. */
  inFlight: number;
  logins: number;
}

export interface OperationStats {
  readonly latencies: number[];
  readonly statuses: Map<number, number>;
  errors: number;
}

export interface LoadStats {
  readonly ops: Record<Operation, OperationStats>;
  readonly anomalies: string[];
  anomalyCount: number;
  readonly errorSamples: string[];
  startedAt: number;
  endedAt: number;
}

export function newStats(): LoadStats {
  const op = (): OperationStats => ({ latencies: [], statuses: new Map(), errors: 0 });
  return {
    ops: { search: op(), fetchMyRequests: op(), fetchMyData: op(), login: op() },
    anomalies: [],
    anomalyCount: 0,
    errorSamples: [],
    startedAt: 0,
    endedAt: 0,
  };
}

export function anomaly(stats: LoadStats, text: string): void {
  stats.anomalyCount++;
  if (stats.anomalies.length < 10) stats.anomalies.push(text);
}

interface SearchBody {
  apirequest: { tid: string; trequestmade: string; trequestcost: number };
  requestresult: { total_count: number; offset: number; limit: number; schools: Array<{ stateprovince: string }> };
}
interface HistoryBody {
  total_count: number;
  requests: Array<{ tid: string }>;
}
interface AccountBody {
  userId: string;
  usage: { request_count: number; total_cost: number };
  active_tokens: number;
}
interface TokenBody {
  userId: string;
  token: string;
}

/** One request, timed and counted; the parsed body when it answered 200. */
async function call<T>(
  client: Client,
  stats: LoadStats,
  op: Operation,
  method: string,
  path: string,
  options: { token?: string; json?: unknown },
): Promise<T | undefined> {
  const s = stats.ops[op];
  let reply: Reply;
  try {
    reply = await client.send(method, path, options);
  } catch (error) {
    s.errors++;
    if (stats.errorSamples.length < 5)
      stats.errorSamples.push(`${op}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
  s.latencies.push(reply.ms);
  s.statuses.set(reply.status, (s.statuses.get(reply.status) ?? 0) + 1);
  if (reply.status !== 200) {
    anomaly(stats, `${op} ${method} ${path.slice(0, 120)} answered ${reply.status}: ${reply.body.slice(0, 300)}`);
    return undefined;
  }
  try {
    return JSON.parse(reply.body) as T;
  } catch {
    anomaly(
      stats,
      `${op} ${method} ${path.slice(0, 120)} answered 200 with a body that is not JSON: ${reply.body.slice(0, 200)}`,
    );
    return undefined;
  }
}

export async function login(client: Client, stats: LoadStats, user: UserState): Promise<void> {
  const body = await call<TokenBody>(client, stats, 'login', 'POST', '/v1/auth', {
    json: { email: user.email, password: user.password },
  });
  if (!body) return;
  user.logins++;
  if (body.userId !== user.userId)
    anomaly(stats, `login of ${user.email} answered userId ${body.userId}, not ${user.userId}`);
  // From now on the newest token: a login past the 100-token cap revokes the oldest, never this one.
  user.token = body.token;
}

export interface LoadSpec {
  readonly client: Client;
  readonly users: readonly UserState[];
  readonly queries: readonly SearchQuery[];
  readonly connections: number;
  readonly seconds: number;
  readonly seed: number;
  readonly stats: LoadStats;
}

export async function runLoad(spec: LoadSpec): Promise<void> {
  const { client, users, queries, stats } = spec;
  const seen = new Set<string>();
  const pickOp = weighted(OPERATIONS.map((op) => [op, MIX[op]] as const));

  const search = async (user: UserState, q: SearchQuery) => {
    user.inFlight++;
    const body = await call<SearchBody>(client, stats, 'search', 'GET', searchPath(q), { token: user.token }).finally(
      () => user.inFlight--,
    );
    if (!body) return;
    const tid = body.apirequest.tid;
    user.searches++;
    user.tids.add(tid);
    if (seen.has(tid)) anomaly(stats, `tid ${tid} received twice`);
    seen.add(tid);
    if (body.apirequest.trequestmade !== `search_schools:${q.query}`) {
      anomaly(
        stats,
        `record says ${JSON.stringify(body.apirequest.trequestmade)} for query ${JSON.stringify(q.query)}`,
      );
    }
    const r = body.requestresult;
    if (
      r.schools.length > (q.limit ?? 25) ||
      r.schools.length !== Math.max(0, Math.min(r.limit, r.total_count - r.offset))
    ) {
      anomaly(
        stats,
        `${searchPath(q)}: ${r.schools.length} schools on a page of ${r.limit} at ${r.offset} of ${r.total_count}`,
      );
    }
    if (q.stateCode !== undefined && r.schools.some((s) => s.stateprovince !== q.stateCode)) {
      anomaly(stats, `${searchPath(q)}: a school outside ${q.stateCode}`);
    }
  };

  // A read of the history or account must count every search answered 200 before it was sent
  // (records are durable before the answer) and nothing beyond those plus the ones in flight.
  const bounds = (user: UserState, what: string, count: number, atSend: number) => {
    if (count < atSend || count > user.searches + user.inFlight) {
      anomaly(stats, `${what} of ${user.email}: ${count}, expected ${atSend}..${user.searches + user.inFlight}`);
    }
  };

  const loop = async (index: number, deadline: number) => {
    const r = mulberry32(spec.seed * 1000 + index);
    while (performance.now() < deadline) {
      const user = one(r, users);
      switch (pickOp(r)) {
        case 'search':
          await search(user, one(r, queries));
          break;
        case 'fetchMyRequests': {
          const atSend = user.searches;
          const limit = one(r, [5, 10, 25]);
          const body = await call<HistoryBody>(
            client,
            stats,
            'fetchMyRequests',
            'GET',
            `/v1/fetchMyRequests?limit=${limit}`,
            { token: user.token },
          );
          if (body) {
            bounds(user, 'fetchMyRequests total_count', body.total_count, atSend);
            if (body.requests.length !== Math.min(limit, body.total_count)) {
              anomaly(
                stats,
                `fetchMyRequests of ${user.email}: ${body.requests.length} records on a page of ${limit} of ${body.total_count}`,
              );
            }
          }
          break;
        }
        case 'fetchMyData': {
          const atSend = user.searches;
          const body = await call<AccountBody>(client, stats, 'fetchMyData', 'GET', '/v1/fetchMyData', {
            token: user.token,
          });
          if (body) {
            bounds(user, 'fetchMyData request_count', body.usage.request_count, atSend);
            if (body.userId !== user.userId)
              anomaly(stats, `fetchMyData of ${user.email} answered userId ${body.userId}`);
            if (body.active_tokens < 1 || body.active_tokens > 100)
              anomaly(stats, `${user.email} has ${body.active_tokens} active tokens`);
          }
          break;
        }
        case 'login':
          await login(client, stats, user);
          break;
      }
    }
  };

  stats.startedAt = performance.now();
  const deadline = stats.startedAt + spec.seconds * 1000;
  await Promise.all(Array.from({ length: spec.connections }, (_, i) => loop(i, deadline)));
  stats.endedAt = performance.now();
}
