// The MongoDB adapter's storage beyond the contract suite (issue 26): which indexes the request
// records keep, on every wire-protocol server this run has (FerretDB v1 here; MongoDB where
// MONGODB_URI names one), and their definitions without a server.
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { COLLECTIONS } from '../../src/stores/mongodb/documents.ts';
import { ensureIndexes, IndexCreationError, INDEXES } from '../../src/stores/mongodb/indexes.ts';
import { freshDatabaseName, mongoServers } from '../support/mongodb.ts';

const servers = await mongoServers();

describe('request indexes', () => {
  test('then no index is kept that no query reads, and pending records are found by their user', () => {
    const requests = INDEXES.requests;
    // Written with every record, read by nothing (the usage per day is kept in usage_days).
    expect(requests.map((i) => i.name)).not.toContain('requests_by_user_day');
    // A read counts its own user's pending records: the index leads with the user and holds
    // pending records only (not every record, as a sparse index on a field all records have would).
    const pending = requests.filter((i) => 'pending' in (i.key as object) || i.partialFilterExpression?.['pending']);
    expect(pending).toHaveLength(1);
    expect(Object.keys(pending[0]!.key)[0]).toBe('userId');
    expect(pending[0]!.partialFilterExpression).toStrictEqual({ pending: true });
  });
});

describe.skipIf(servers.length === 0).each(servers)('request indexes on %s', (_name, uri) => {
  let client: MongoClient;
  beforeAll(async () => {
    client = await MongoClient.connect(uri);
  });
  afterAll(async () => {
    await client?.close();
  });

  test('when a store made by an earlier version is opened, then its unread and unscoped request indexes are dropped', async () => {
    const db = client.db(freshDatabaseName());
    try {
      const requests = db.collection(COLLECTIONS.requests);
      // As 1.2 left them.
      await requests.createIndex({ userId: 1, day: 1, cost: 1 }, { name: 'requests_by_user_day' });
      await requests.createIndex({ pending: 1 }, { name: 'requests_pending', sparse: true });
      await ensureIndexes(db).catch((error: unknown) => {
        // FerretDB refuses some (text, TTL, partial): the others are made, and the outdated dropped.
        if (!(error instanceof IndexCreationError)) throw error;
      });
      const names = (await requests.listIndexes().toArray()).map((i) => i['name'] as string);
      expect(names).toContain('requests_by_user_time');
      expect(names).not.toContain('requests_by_user_day');
      expect(names).not.toContain('requests_pending');
      // Again: nothing left to drop, nothing fails.
      await ensureIndexes(db).catch((error: unknown) => {
        if (!(error instanceof IndexCreationError)) throw error;
      });
    } finally {
      await db.dropDatabase();
    }
  });
});
