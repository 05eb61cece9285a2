// The embedded store (node:sqlite) against the store contract suite: each fixture is a store
// file in a temporary directory of its own, so tests and files can run in parallel.
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, test } from 'vitest';
import type { Store } from '../../src/domain/store.port.ts';
import { SCHEMA } from '../../src/stores/sqlite/schema.ts';
import { SqliteStore } from '../../src/stores/sqlite/store.ts';
import {
  at,
  HOUR,
  record,
  recordId,
  school,
  SECOND,
  stored,
  T0,
  token,
  tokenId,
  user,
  userId,
} from '../support/builders.ts';
import { storeContractSuite } from './contract/suite.ts';

storeContractSuite({
  name: 'sqlite',
  async create() {
    const dir = mkdtempSync(join(tmpdir(), 'school-search-contract-'));
    const path = join(dir, 'store.db');
    let store: Store = await SqliteStore.open({ path });
    return {
      // A getter: after reopen() the fixture's store is the reopened one.
      get store() {
        return store;
      },
      async reopen() {
        await store.close();
        store = await SqliteStore.open({ path });
        return store;
      },
      async dispose() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
});

describe('schema migrations', () => {
  test('when a store made before API keys is opened, then its tokens are sessions, unnamed and never used, and keep working', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'school-search-migrate-'));
    try {
      const path = join(dir, 'store.db');
      // The store as the release before API keys left it: the first two migrations.
      const old = new DatabaseSync(path);
      for (const step of SCHEMA.slice(0, 2)) old.exec(step);
      old.exec('PRAGMA user_version = 2');
      old
        .prepare('INSERT INTO users (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)')
        .run(userId(1), 'old@example.com', 'hash', T0.toISOString());
      old
        .prepare('INSERT INTO tokens (id, user_id, digest, hint, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(tokenId(1), userId(1), 'd'.repeat(64), 'ssk_old1', T0.toISOString(), at(HOUR).toISOString());
      old.close();

      const store = await SqliteStore.open({ path });
      try {
        expect(await store.tokens.findByDigest('d'.repeat(64))).toStrictEqual({
          id: tokenId(1),
          userId: userId(1),
          kind: 'session',
          name: null,
          digest: 'd'.repeat(64),
          hint: 'ssk_old1',
          createdAt: T0,
          expiresAt: at(HOUR),
          revokedAt: null,
          lastUsedAt: null,
          // Tokens of before password versions: version 0, signed in when made.
          passwordVersion: 0,
          authenticatedAt: T0,
        });
        await store.tokens.touch(tokenId(1), at(SECOND), T0);
        expect((await store.tokens.listLive(userId(1), at(SECOND)))[0]!.lastUsedAt).toStrictEqual(at(SECOND));
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('when a store made before searches kept their scope is opened, then its records answer without one, and new ones keep theirs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'school-search-migrate-'));
    try {
      const path = join(dir, 'store.db');
      // The store as the release before the search scope left it: the first seven migrations.
      const old = new DatabaseSync(path);
      for (const step of SCHEMA.slice(0, 7)) old.exec(step);
      old.exec('PRAGMA user_version = 7');
      old
        .prepare('INSERT INTO users (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)')
        .run(userId(1), 'old@example.com', 'hash', T0.toISOString());
      old
        .prepare('INSERT INTO api_requests (id, user_id, request_made, time_made, cost) VALUES (?, ?, ?, ?, ?)')
        .run(recordId(1), userId(1), 'search_schools:a', '2026-11-20T10:00:00.000Z', 1);
      old.close();

      const store = await SqliteStore.open({ path });
      try {
        const newer = {
          ...record(2, userId(1), new Date('2026-11-21T10:00:00.000Z')),
          search: {
            stateCode: 'TX',
            offset: 25,
            limit: 10,
            level: ['high'] as const,
            type: ['public', 'charter'] as const,
            near: { latitude: 29.7604, longitude: -95.3698 },
            radiusKm: 40,
          },
        };
        await store.requests.append(newer);
        expect((await store.requests.list(userId(1), { offset: 0, limit: 10 })).records).toStrictEqual([
          newer,
          {
            id: recordId(1),
            userId: userId(1),
            requestMade: 'search_schools:a',
            timeMade: new Date('2026-11-20T10:00:00.000Z'),
            cost: 1,
          },
        ]);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('when a store made before usage per day is opened, then its records are counted per day, and later ones add to them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'school-search-migrate-'));
    try {
      const path = join(dir, 'store.db');
      // The store as the release before usage per day left it: the first four migrations.
      const old = new DatabaseSync(path);
      for (const step of SCHEMA.slice(0, 4)) old.exec(step);
      old.exec('PRAGMA user_version = 4');
      old
        .prepare(
          'INSERT INTO users (id, email, password_hash, created_at, request_count, total_cost, last_request_at) VALUES (?, ?, ?, ?, 3, 6, ?)',
        )
        .run(userId(1), 'old@example.com', 'hash', T0.toISOString(), '2026-11-21T11:00:00.000Z');
      const insert = old.prepare(
        'INSERT INTO api_requests (id, user_id, request_made, time_made, cost) VALUES (?, ?, ?, ?, ?)',
      );
      insert.run(recordId(1), userId(1), 'search_schools:a', '2026-11-20T10:00:00.000Z', 2);
      insert.run(recordId(2), userId(1), 'search_schools:b', '2026-11-20T23:59:59.999Z', 3);
      insert.run(recordId(3), userId(1), 'search_schools:c', '2026-11-21T11:00:00.000Z', 1);
      old.close();

      const store = await SqliteStore.open({ path });
      try {
        expect(await store.requests.usageByDay(userId(1), '2026-11-19', '2026-11-22')).toStrictEqual([
          { day: '2026-11-20', count: 2, cost: 5 },
          { day: '2026-11-21', count: 1, cost: 1 },
        ]);
        await store.requests.append(record(4, userId(1), new Date('2026-11-21T12:00:00.000Z'), 4));
        expect(await store.requests.usageByDay(userId(1), '2026-11-21', '2026-11-21')).toStrictEqual([
          { day: '2026-11-21', count: 2, cost: 5 },
        ]);
        expect(await store.requests.usage(userId(1))).toStrictEqual({
          count: 4,
          totalCost: 10,
          lastAt: new Date('2026-11-21T12:00:00.000Z'),
        });
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('when a store made before school locations is opened, then its schools have none, stay unchanged, and take one on the next import', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'school-search-migrate-'));
    try {
      const path = join(dir, 'store.db');
      const laval = school('Université Laval', {
        city: 'Québec',
        stateprovince: 'QC',
        aliases: ['Laval'],
        prominence: 60,
      });
      // The store as the release before locations left it: the first three migrations.
      const old = new DatabaseSync(path);
      for (const step of SCHEMA.slice(0, 3)) old.exec(step);
      old.exec('PRAGMA user_version = 3');
      old
        .prepare(
          'INSERT INTO schools (id, name, city, state, image_url, aliases, prominence) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(laval.id, laval.name, laval.city, laval.state, null, JSON.stringify(laval.aliases), laval.prominence);
      const catalogVersion = (db: DatabaseSync) =>
        (db.prepare('SELECT version FROM catalog').get() as { version: number }).version;
      const before = catalogVersion(old);
      old.close();

      const store = await SqliteStore.open({ path });
      try {
        // Nothing a search engine indexes changed: the catalog keeps its version (no re-index).
        const migrated = new DatabaseSync(path, { readOnly: true });
        expect(catalogVersion(migrated)).toBe(before);
        migrated.close();
        expect(await store.schools.findById(laval.id)).toStrictEqual(stored(laval));
        const version = await store.schools.catalogVersion();
        expect(await store.schools.upsertMany([laval])).toStrictEqual({ inserted: 0, updated: 0, unchanged: 1 });
        expect(await store.schools.catalogVersion()).toBe(version);
        const located = {
          ...laval,
          address: '2325, rue de l’Université',
          postalCode: 'G1V 0A6',
          latitude: 46.7817,
          longitude: -71.2748,
        };
        expect(await store.schools.upsertMany([located])).toStrictEqual({ inserted: 0, updated: 1, unchanged: 0 });
        expect(await store.schools.findById(laval.id)).toStrictEqual(stored(located));
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('when a token found by one store is revoked through another store or connection on the file, then its next find says so', async () => {
    // Two API processes on one file, and the command line or an operator's sqlite3: a token one
    // of them has found is revoked by another. Whatever a store ever remembers of the tokens it
    // found must not outlive this (docs/runs/performance.md, Run L, has a cache that was measured).
    await onOneFile(async ({ a, b, alice, path }) => {
      const t = token(1, alice.id, { expiresAt: at(HOUR) });
      const u = token(2, alice.id, { expiresAt: at(HOUR) });
      await a.tokens.insert(t);
      await a.tokens.insert(u);
      expect(await a.tokens.findByDigest(t.digest)).toStrictEqual(t);
      expect(await a.tokens.findByDigest(t.digest)).toStrictEqual(t);
      expect(await b.tokens.revoke(alice.id, t.id, at(SECOND))).toBe(true);
      expect(await a.tokens.findByDigest(t.digest)).toStrictEqual({ ...t, revokedAt: at(SECOND) });

      expect(await a.tokens.findByDigest(u.digest)).toStrictEqual(u);
      const sqlite = new DatabaseSync(path);
      sqlite.prepare('UPDATE tokens SET revoked_at = ? WHERE id = ?').run(at(2 * SECOND).toISOString(), u.id);
      expect(await a.tokens.findByDigest(u.digest)).toStrictEqual({ ...u, revokedAt: at(2 * SECOND) });

      // Cut short, or deleted outright, by an operator's sqlite3.
      const v = token(3, alice.id, { expiresAt: at(HOUR) });
      const w = token(4, alice.id, { expiresAt: at(HOUR) });
      await b.tokens.insert(v);
      await b.tokens.insert(w);
      expect(await a.tokens.findByDigest(v.digest)).toStrictEqual(v);
      expect(await a.tokens.findByDigest(w.digest)).toStrictEqual(w);
      sqlite.prepare('UPDATE tokens SET expires_at = ? WHERE id = ?').run(at(30 * SECOND).toISOString(), v.id);
      expect(await a.tokens.findByDigest(v.digest)).toStrictEqual({ ...v, expiresAt: at(30 * SECOND) });
      expect(await a.tokens.findByDigest(w.digest)).toStrictEqual(w);
      sqlite.prepare('DELETE FROM tokens WHERE id = ?').run(w.id);
      sqlite.close();
      expect(await a.tokens.findByDigest(w.digest)).toBeNull();
    });
  });

  test('when records made with a token revoked through another connection are committed with others, then only they are refused, and the token is no longer remembered', async () => {
    // A token found is remembered (for a metered request, AuthService.authenticateMetered); one
    // revoked by another process stays remembered here until a record made with it is refused.
    await onOneFile(async ({ a, b, alice }) => {
      const t = token(1, alice.id, { expiresAt: at(HOUR) });
      const u = token(2, alice.id, { expiresAt: at(HOUR) });
      await a.tokens.insert(t);
      await a.tokens.insert(u);
      const holder = { passwordVersion: 0, keysFromVersion: 0 };
      expect(a.tokens.remembered(t.digest)).toBeUndefined();
      expect(await a.tokens.findHeld(t.digest)).toStrictEqual({ token: t, holder });
      expect(await a.tokens.findHeld(u.digest)).toStrictEqual({ token: u, holder });
      expect(a.tokens.remembered(t.digest)).toStrictEqual({ token: t, holder });
      expect(await b.tokens.revoke(alice.id, t.id, at(SECOND))).toBe(true);
      expect(a.tokens.remembered(t.digest)).toStrictEqual({ token: t, holder });

      // Appended in one turn of the event loop: one commit.
      const results = await Promise.allSettled([
        a.requests.append(record(1, alice.id, at(2 * SECOND)), u.id),
        a.requests.append(record(2, alice.id, at(2 * SECOND)), t.id),
        a.requests.append(record(3, alice.id, at(2 * SECOND))),
        a.requests.append(record(4, alice.id, at(2 * SECOND)), t.id),
      ]);
      expect(results.map((r) => r.status)).toStrictEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
      expect((results[1] as PromiseRejectedResult).reason).toMatchObject({
        name: 'UnauthenticatedError',
        reason: 'revoked',
      });
      const page = await b.requests.list(alice.id, { offset: 0, limit: 10 });
      expect(page.records.map((r) => r.id).sort()).toStrictEqual([recordId(1), recordId(3)]);
      expect(await b.requests.usage(alice.id)).toMatchObject({ count: 2 });
      expect(a.tokens.remembered(t.digest)).toBeUndefined();
      expect(a.tokens.remembered(u.digest)).toStrictEqual({ token: u, holder });

      // A change this store makes forgets every token: they are read again.
      await a.tokens.revokeAllExcept(alice.id, t.id, at(3 * SECOND));
      expect(a.tokens.remembered(u.digest)).toBeUndefined();
    });
  });

  test('when the password of a remembered token changes through another connection, then its records are refused at commit, and it is forgotten', async () => {
    // The revocations of the change are left out (a store of before, a change cut short): the
    // version alone must stop the session, at the record's commit, where the token is read again.
    await onOneFile(async ({ a, b, alice, path }) => {
      const t = token(1, alice.id, { expiresAt: at(HOUR) });
      const key = token(2, alice.id, { expiresAt: at(HOUR), kind: 'key' });
      await a.tokens.insert(t);
      await a.tokens.insert(key);
      await a.tokens.findHeld(t.digest);
      await a.tokens.findHeld(key.digest);
      const raw = new DatabaseSync(path);
      raw.prepare('UPDATE users SET password_version = password_version + 1 WHERE id = ?').run(alice.id);
      raw.close();
      const results = await Promise.allSettled([
        a.requests.append(record(1, alice.id, at(SECOND)), t.id),
        a.requests.append(record(2, alice.id, at(SECOND)), key.id),
      ]);
      // The session is of the old password; the key holds (keys survive a change that keeps them).
      expect(results.map((r) => r.status)).toStrictEqual(['rejected', 'fulfilled']);
      expect(a.tokens.remembered(t.digest)).toBeUndefined();
      expect((await b.requests.usage(alice.id)).count).toBe(1);
    });
  });

  test('when the store file is replaced by another store while a token is known, then the token is looked up in the new one', async () => {
    // An operator restores a copy taken before the token was issued. A store may still remember
    // the token (it was found in the file before); a record made with it is refused all the same.
    await onOneFile(async ({ a, alice, path }) => {
      const copy = `${path}.copy`;
      const sqlite = new DatabaseSync(path);
      sqlite.exec(`VACUUM INTO '${copy}'`);
      sqlite.close();
      const t = token(1, alice.id, { expiresAt: at(HOUR) });
      await a.tokens.insert(t);
      expect(await a.tokens.findByDigest(t.digest)).toStrictEqual(t);
      renameSync(copy, path);
      // The connection notices a replaced file at the next turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      expect(await a.tokens.findByDigest(t.digest)).toBeNull();
      await expect(a.requests.append(record(1, alice.id, at(SECOND)), t.id)).rejects.toMatchObject({
        reason: 'revoked',
      });
      expect((await a.requests.usage(alice.id)).count).toBe(0);
    });
  });

  test('when a school is imported with its source key, then the store keeps it, also through an import without one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'school-search-source-key-'));
    try {
      const path = join(dir, 'store.db');
      const lincoln = school('Lincoln High School', { city: 'Lincoln', stateprovince: 'AL', key: 'nces:010318001214' });
      const { sourceKey: _sourceKey, ...keyless } = lincoln;
      const store = await SqliteStore.open({ path });
      try {
        await store.schools.upsertMany([lincoln]);
        await store.schools.upsertMany([{ ...keyless, city: 'LINCOLN' }]);
      } finally {
        await store.close();
      }
      const db = new DatabaseSync(path, { readOnly: true });
      expect(db.prepare('SELECT city, source_key FROM schools').all()).toEqual([
        { city: 'LINCOLN', source_key: 'nces:010318001214' },
      ]);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('when a store made before records had a time of change is opened, then its schools take the time it was opened', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'school-search-migrate-'));
    try {
      const path = join(dir, 'store.db');
      const reed = school('Reed College', { city: 'Portland', stateprovince: 'OR', key: 'ipeds:209922' });
      // The store as the release before updated_at left it: every migration before that one.
      const before = SCHEMA.findIndex((step) => step.includes('ADD COLUMN updated_at'));
      const old = new DatabaseSync(path);
      for (const step of SCHEMA.slice(0, before)) old.exec(step);
      old.exec(`PRAGMA user_version = ${before}`);
      old
        .prepare(
          'INSERT INTO schools (id, name, city, state, image_url, aliases, prominence, source_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(reed.id, reed.name, reed.city, reed.state, null, '[]', 0, 'ipeds:209922');
      old.close();
      const from = Date.now();
      const store = await SqliteStore.open({ path });
      try {
        const record = await store.schools.findRecord(reed.id);
        expect(record).toMatchObject({ name: 'Reed College', sourceIds: ['ipeds:209922'], aliases: [] });
        expect(record!.updatedAt.getTime()).toBeGreaterThanOrEqual(from - 1000);
        expect(record!.updatedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('catalog changes (deltas)', () => {
  test('when imports change schools, then catalogChanges gives exactly the schools changed since a version, at most `limit`, and the new version', async () => {
    await onOneFile(async ({ a, b }) => {
      await a.schools.upsertMany([
        school('Reed College'),
        school('Lewis & Clark College'),
        school('Linfield University'),
      ]);
      const v1 = await b.schools.catalogVersion();
      expect(await b.schools.catalogChanges!(v1, 10)).toEqual({ version: v1, schools: [] });
      // Unchanged schools are not changes; a changed one and a new one are.
      await a.schools.upsertMany([
        school('Reed College'),
        school('Lewis & Clark College', { city: 'Eugene' }),
        school('Pacific University'),
      ]);
      const v2 = await b.schools.catalogVersion();
      expect(v2).not.toBe(v1);
      const changes = await b.schools.catalogChanges!(v1, 10);
      expect(changes?.version).toBe(v2);
      expect(changes?.schools.map((s) => [s.name, s.city])).toEqual([
        ['Lewis & Clark College', 'Eugene'],
        ['Pacific University', 'Springfield'],
      ]);
      expect(await b.schools.catalogChanges!(v1, 1)).toBeUndefined();
      // A version this store never gave (another generation, a number of the future, or none) cannot be told from.
      for (const since of ['7:1:abc', v2.replace(/:(\d+):/, (_, n) => `:${Number(n) + 5}:`), 'nonsense'])
        expect(await b.schools.catalogChanges!(since, 10)).toBeUndefined();
    });
  });

  test('when one version number is reached again in another history of the store (a copy imported into), then its version string differs', async () => {
    await onOneFile(async ({ a, path }) => {
      await a.schools.upsertMany([school('Reed College')]);
      const copy = `${path}.copy`;
      const db = new DatabaseSync(path);
      db.exec(`VACUUM INTO '${copy}'`);
      db.close();
      await a.schools.upsertMany([school('Pacific University')]);
      const other = await SqliteStore.open({ path: copy });
      try {
        await other.schools.upsertMany([school('Linfield University')]);
        const [mine, theirs] = [await a.schools.catalogVersion(), await other.schools.catalogVersion()];
        expect(mine.split(':')[1]).toBe(theirs.split(':')[1]);
        expect(mine).not.toBe(theirs);
      } finally {
        await other.close();
      }
    });
  });

  test('when a store made before changes were kept is opened, then changes since a version of before cannot be told, and those after can', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'school-search-migrate-'));
    try {
      const path = join(dir, 'store.db');
      const before = SCHEMA.findIndex((step) => step.includes('ADD COLUMN changed_in'));
      const old = new DatabaseSync(path);
      for (const step of SCHEMA.slice(0, before)) old.exec(step);
      old.exec(`PRAGMA user_version = ${before}`);
      old.exec('UPDATE catalog SET version = 4');
      old.close();
      const store = await SqliteStore.open({ path });
      try {
        const now = await store.schools.catalogVersion();
        expect(now).toMatch(/^\d+:4:[0-9a-f]{12}$/);
        expect(await store.schools.catalogChanges!(now.replace(':4:', ':3:'), 10)).toBeUndefined();
        await store.schools.upsertMany([school('Reed College')]);
        expect((await store.schools.catalogChanges!(now, 10))?.schools.map((s) => s.name)).toEqual(['Reed College']);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Two stores on one file (two API processes), in a directory of their own, with Alice as a user;
 * both closed and the directory removed after `work`.
 */
async function onOneFile(
  work: (files: { a: SqliteStore; b: SqliteStore; alice: ReturnType<typeof user>; path: string }) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'school-search-tokens-'));
  try {
    const path = join(dir, 'store.db');
    const a = await SqliteStore.open({ path });
    const b = await SqliteStore.open({ path });
    try {
      const alice = user(1);
      await a.users.create(alice);
      await work({ a, b, alice, path });
    } finally {
      await a.close();
      await b.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
