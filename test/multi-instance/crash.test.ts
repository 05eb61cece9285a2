// Issue 13, many API instances on one store: one instance killed (SIGKILL) in the middle of a
// concurrent search load on both leaves a store whose counters equal its records. Read through
// the survivor: the account's totals, the usage per day and the history page by page all count
// the same records, and every search either instance answered 200 is among them.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { fetchMyData, fetchMyRequests, fetchMyUsage, fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import {
  createUser,
  login,
  NO_LIMITS,
  sharedStores,
  usePair,
  wholeHistory,
  type Instance,
} from '../support/instances.ts';

/** Concurrent searches kept in flight on each instance. */
const CONNECTIONS = 16;
/** A is killed once it has answered this many. */
const KILL_AFTER = 120;
/** B goes on until it has answered this many after the kill. */
const B_AFTER_KILL = 60;
const QUERIES = ['harv', 'mass', 'ecole', 'mount', 'univ', 'state college', 'lincoln u', 'texas'];

/** Searches from `CONNECTIONS` concurrent clients until `stop()` says so or the instance goes away. */
function searchLoad(instance: Instance, token: string, stop: () => boolean) {
  const tids: string[] = [];
  const other: Array<{ status: number | undefined; error: string }> = [];
  let sent = 0;
  let settled = 0;
  let networkErrors = 0;
  const loops = Array.from({ length: CONNECTIONS }, async (_, i) => {
    for (let n = 0; !stop(); n++) {
      sent++;
      const r = await fetchSchoolSearch({
        client: instance.client(token),
        query: { query: QUERIES[(i + n) % QUERIES.length]! },
      });
      settled++;
      if (r.response?.status === 200 && r.data) tids.push(r.data.apirequest.tid);
      else if (r.response === undefined) {
        // Refused or cut off: the instance is gone, and this search was not answered.
        networkErrors++;
        if (!instance.running()) return;
        await sleep(5);
      } else other.push({ status: r.response.status, error: JSON.stringify(r.error).slice(0, 300) });
    }
  });
  return {
    tids,
    other,
    get inFlight() {
      return sent - settled;
    },
    get networkErrors() {
      return networkErrors;
    },
    done: Promise.all(loops),
  };
}

const stores = await sharedStores();

describe.each(stores)('two API instances on %s: one killed under load', (_name, prepare) => {
  const pair = usePair(prepare, NO_LIMITS);

  test('when A is SIGKILLed in the middle of concurrent searches on A and B, then through B the usage totals, the usage per day and the history all count the same records, and every search answered 200 is among them', async (ctx) => {
    ctx.skip(typeof prepare === 'string', String(prepare));
    const user = await createUser(pair.store, 'loaded');
    const { token } = await login(pair.a, user.email, user.password);

    let killed = false;
    let bAtKill = 0;
    const deadline = performance.now() + 90_000;
    const onA = searchLoad(pair.a, token, () => killed || performance.now() > deadline);
    const onB = searchLoad(
      pair.b,
      token,
      () => (killed && onB.tids.length - bAtKill >= B_AFTER_KILL) || performance.now() > deadline,
    );

    while (onA.tids.length < KILL_AFTER && performance.now() < deadline) await sleep(10);
    expect(onA.tids.length).toBeGreaterThanOrEqual(KILL_AFTER);
    const inFlightOnA = onA.inFlight;
    const answeredByA = [...onA.tids];
    bAtKill = onB.tids.length;
    process.kill(pair.a.pid, 'SIGKILL');
    killed = true;
    expect((await pair.a.exited).signal).toBe('SIGKILL');
    await Promise.all([onA.done, onB.done]);

    // In the middle: searches were still under way on A when it died.
    expect(inFlightOnA).toBeGreaterThan(0);
    // Whatever A answered in full (a body parsed) it answered before it died: at most those in flight besides.
    expect(onA.tids.length - answeredByA.length).toBeLessThanOrEqual(inFlightOnA);
    expect({ otherOnA: onA.other, otherOnB: onB.other, networkErrorsOnB: onB.networkErrors }).toEqual({
      otherOnA: [],
      otherOnB: [],
      networkErrorsOnB: 0,
    });
    expect(onB.tids.length - bAtKill).toBeGreaterThanOrEqual(B_AFTER_KILL);

    const client = pair.b.client(token);
    const account = await fetchMyData({ client });
    expect(account.response?.status).toBe(200);
    const usage = await fetchMyUsage({ client, query: { days: 7 } });
    expect(usage.response?.status).toBe(200);
    const first = await fetchMyRequests({ client, query: { limit: 1 } });
    expect(first.response?.status).toBe(200);
    const records = await wholeHistory(client);

    // One entry per record: a page that repeats the previous one's last record, or skips one, shows here.
    const kept = new Map(records.map((r) => [r.tid, r]));
    const count = kept.size;
    const cost = [...kept.values()].reduce((sum, r) => sum + r.trequestcost, 0);
    expect({
      'fetchMyData usage.request_count': account.data!.usage.request_count,
      'fetchMyData usage.total_cost': account.data!.usage.total_cost,
      'fetchMyUsage sum of request_count': usage.data!.days.reduce((sum, d) => sum + d.request_count, 0),
      'fetchMyUsage sum of total_cost': usage.data!.days.reduce((sum, d) => sum + d.total_cost, 0),
      'fetchMyRequests total_count': first.data!.total_count,
      'records walked page by page': records.length,
    }).toEqual({
      'fetchMyData usage.request_count': count,
      'fetchMyData usage.total_cost': cost,
      'fetchMyUsage sum of request_count': count,
      'fetchMyUsage sum of total_cost': cost,
      'fetchMyRequests total_count': count,
      'records walked page by page': count,
    });

    const answered = [...onA.tids, ...onB.tids];
    expect({ answered: answered.length, missing: answered.filter((tid) => !kept.has(tid)) }).toEqual({
      answered: answered.length,
      missing: [],
    });
  }, 180_000);
});
