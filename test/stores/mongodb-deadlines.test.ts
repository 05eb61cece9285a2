// Every MongoDB call a request makes has a deadline (issue 43): each read a `maxTimeMS`, each
// write acknowledged by a majority a `wtimeout`, so that a slow or partitioned server is a 503
// within seconds, never a request held to the socket timeout. Watched on the wire (the driver's
// command monitoring) while a user logs in, searches, reads their account, history and usage,
// creates and revokes a key and logs out, on every wire-protocol server this run has.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CommandStartedEvent } from 'mongodb';
import {
  createApiKey,
  fetchMyData,
  fetchMyRequests,
  fetchMyUsage,
  fetchSchoolSearch,
  revokeCurrentToken,
  revokeMyToken,
} from '../../generated/sdk.gen.ts';
import type { MongoStore } from '../../src/stores/mongodb/store.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { mongoServers } from '../support/mongodb.ts';

const servers = await mongoServers();
if (servers.length === 0) console.warn('MongoDB deadlines — skipped: no wire-protocol server in this run');

const READS = new Set(['find', 'aggregate', 'count', 'distinct']);
const WRITES = new Set(['insert', 'update', 'delete', 'findAndModify']);

/** The monitoring option in the URI: the driver then emits commandStarted for every command. */
const monitored = (uri: string) => `${uri}${uri.includes('?') ? '&' : '?'}monitorCommands=true`;

describe.skipIf(servers.length === 0).each(servers.length ? servers : [['none', '', 'ferretdb'] as const])(
  'deadlines of the MongoDB calls of requests on %s',
  (_name, uri) => {
    let app: TestApp;
    const seen: CommandStartedEvent[] = [];
    beforeAll(async () => {
      app = await startTestApp({ mongoUri: monitored(uri) });
      await app.seed([{ schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' }]);
      (app.services.store as MongoStore).db.client.on('commandStarted', (event) => seen.push(event));
    });
    afterAll(() => app?.close());

    test('when a user logs in, searches, reads their data and keys, and logs out, then every read has a maxTimeMS and every majority write a wtimeout', async () => {
      const user = await app.userClient();
      await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } });
      await fetchSchoolSearch({
        client: user.client,
        query: { query: 'harvard' },
        headers: { 'Idempotency-Key': 'k1' },
      });
      await fetchMyData({ client: user.client });
      await fetchMyRequests({ client: user.client });
      await fetchMyUsage({ client: user.client, query: { days: 7 } });
      const key = await createApiKey({
        client: user.client,
        body: { name: 'deadlines', current_password: 'correct-horse-battery' },
      });
      await revokeMyToken({ client: user.client, path: { tokenId: key.data!.token_id } });
      await revokeCurrentToken({ client: user.client });
      const reads = seen.filter((e) => READS.has(e.commandName));
      const writes = seen.filter((e) => WRITES.has(e.commandName));
      expect(reads.length).toBeGreaterThan(5);
      expect(writes.length).toBeGreaterThan(3);
      const unbounded = reads
        .filter((e) => e.command['maxTimeMS'] === undefined)
        .map(
          (e) =>
            `${e.commandName} ${String(e.command[e.commandName])} ${JSON.stringify(e.command['filter'] ?? e.command['pipeline'] ?? {})}`,
        );
      expect(unbounded).toEqual([]);
      const unboundedMajority = writes
        .filter((e) => e.command['writeConcern']?.w === 'majority' && e.command['writeConcern']?.wtimeout === undefined)
        .map((e) => `${e.commandName} ${String(e.command[e.commandName])}`);
      expect(unboundedMajority).toEqual([]);
    });
  },
);
