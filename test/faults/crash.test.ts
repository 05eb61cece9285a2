// A crash (SIGKILL of the server) under concurrent search load loses no acknowledged request
// record: every tid a client was shown in a 200 is in that user's history after a restart.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { createServices } from '../../src/composition/services.ts';
import { SqliteStore } from '../../src/stores/sqlite/store.ts';
import { cheapHasher } from '../support/app.ts';
import { DEMO, historyIds, login, searchLoad, testScope } from '../support/processes.ts';

const PASSWORD = 'correct-horse-battery';
const USERS = [DEMO.email, 'ada@example.com', 'grace@example.com'];

const scope = testScope();
afterEach(() => scope.end());

const passwordOf = (email: string) => (email === DEMO.email ? DEMO.password : PASSWORD);

describe('crash under load', () => {
  test("when the server is killed under concurrent searches by several users, then every tid a client received is in that user's history after a restart", async () => {
    const dir = scope.tempDir('crash');
    const dbPath = join(dir.path, 'store.db');
    const store = await SqliteStore.open({ path: dbPath });
    const services = createServices({ store, hasher: cheapHasher, tokenTtlSeconds: 3600 });
    for (const email of USERS.slice(1)) await services.auth.createUser(email, PASSWORD);
    await store.close();

    const server = await scope.serve(dbPath);
    const loads = await Promise.all(
      USERS.map(async (email) => ({
        email,
        load: searchLoad((await login(server.baseUrl, email, passwordOf(email))).client, 6),
      })),
    );
    // Under way for every user (the machine may be busy with other test files), then the crash.
    const deadline = performance.now() + 15_000;
    while (loads.some(({ load }) => load.tids.length < 20) && performance.now() < deadline) await sleep(20);
    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    await Promise.all(loads.map(({ load }) => load.stop()));

    const again = await scope.serve(dbPath);
    for (const { email, load } of loads) {
      expect(load.statuses).toEqual([]);
      expect(load.tids.length).toBeGreaterThanOrEqual(20);
      const history = await historyIds((await login(again.baseUrl, email, passwordOf(email))).client);
      expect({ email, missing: load.tids.filter((tid) => !history.has(tid)) }).toEqual({ email, missing: [] });
    }
    again.child.kill('SIGTERM');
    expect((await again.exited).code).toBe(0);
  });
});
