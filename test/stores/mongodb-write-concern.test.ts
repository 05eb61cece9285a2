// Issue 38, the MongoDB points, checked on the adapter's calls (no MongoDB server can run here;
// FerretDB, which the API tests also run on, ignores write concerns): every write that ends or
// grants access is acknowledged by a majority whatever the cluster's default (a rollback after a
// failover must not bring a revoked token or a used link back); a password change moves the
// account's version before it touches a token; the outbox's expiry scan is bounded and indexed.
import type { Collection, Document } from 'mongodb';
import { describe, expect, test } from 'vitest';
import type { LinkDocument, OutboxDocument, TokenDocument, UserDocument } from '../../src/stores/mongodb/documents.ts';
import { INDEXES } from '../../src/stores/mongodb/indexes.ts';
import { MongoLinkStore } from '../../src/stores/mongodb/link.store.ts';
import { MongoMailOutbox } from '../../src/stores/mongodb/outbox.store.ts';
import { MongoTokenStore } from '../../src/stores/mongodb/token.store.ts';
import { MongoUserStore } from '../../src/stores/mongodb/user.store.ts';
import { T0 } from '../support/builders.ts';

interface Call {
  readonly collection: string;
  readonly method: string;
  readonly args: readonly unknown[];
}

/** A collection that records every call and answers as a collection holding `docs` would (enough for these paths). */
function recording<T extends Document>(name: string, calls: Call[], docs: Document[] = []): Collection<T> {
  const cursor = (args: unknown[]) => {
    const step =
      (method: string) =>
      (...a: unknown[]) => {
        calls.push({ collection: name, method, args: a });
        return chain;
      };
    const chain: Record<string, unknown> = { sort: step('sort'), limit: step('limit'), skip: () => chain };
    chain['toArray'] = async () => docs;
    calls.push({ collection: name, method: 'find', args });
    return chain;
  };
  return new Proxy({} as Collection<T>, {
    get(_target, method: string) {
      if (method === 'find') return (...args: unknown[]) => cursor(args);
      return async (...args: unknown[]) => {
        calls.push({ collection: name, method, args });
        if (method === 'findOne') return docs[0] ?? null;
        return { matchedCount: 1, modifiedCount: 1, deletedCount: docs.length, insertedId: 'x' };
      };
    },
  });
}

const majority = (call: Call) =>
  call.args.some((a) => (a as { writeConcern?: { w?: unknown } } | undefined)?.writeConcern?.w === 'majority');

describe('MongoDB writes that end or grant access', () => {
  test('when a password is set, then the version moves first, then the kept token, then the revocations: every write by a majority', async () => {
    const calls: Call[] = [];
    const users = recording<UserDocument>('users', calls, [{ _id: 'u', passwordVersion: 3 }]);
    const tokens = recording<TokenDocument>('tokens', calls);
    const store = new MongoUserStore(users, tokens);
    expect(
      await store.setPassword({ userId: 'u', passwordHash: 'h', revokeKeys: true, keepTokenId: 't', now: T0 }),
    ).toBe(4);
    const writes = calls.filter((c) => c.method.startsWith('update'));
    expect(writes.map((c) => `${c.collection}.${c.method}`)).toEqual([
      'users.updateOne',
      'tokens.updateOne',
      'tokens.updateMany',
    ]);
    expect(writes.every(majority)).toBe(true);
    // The version is a compare and set on the one read, with the keys' floor moved with it.
    expect(writes[0]!.args[0]).toEqual({ _id: 'u', passwordVersion: 3 });
    expect(writes[0]!.args[1]).toEqual({ $set: { passwordHash: 'h', passwordVersion: 4, keysFromVersion: 4 } });
  });

  test('when tokens are revoked (one, all but one, beyond the newest) or a session is refused, then by a majority', async () => {
    const calls: Call[] = [];
    const tokens = new MongoTokenStore(
      recording<TokenDocument>('tokens', calls, [{ _id: 'old' }]),
      recording<UserDocument>('users', calls, [{ _id: 'u', passwordVersion: 1 }]),
    );
    await tokens.revoke('u', 't', T0);
    await tokens.revokeAllExcept('u', 't', T0);
    await tokens.revokeAllButNewest('u', 0, T0);
    const session = {
      id: 's',
      userId: 'u',
      kind: 'session' as const,
      name: null,
      digest: 'd',
      hint: 'ssk_0000',
      createdAt: T0,
      expiresAt: T0,
      revokedAt: null,
      lastUsedAt: null,
      passwordVersion: 0,
      authenticatedAt: T0,
    };
    // Issued against version 0 while the account is at 1: inserted, then taken back.
    expect(await tokens.insertSession(session, 5, T0)).toBeNull();
    const writes = calls.filter((c) => c.method.startsWith('update'));
    expect(writes).toHaveLength(4);
    expect(writes.every(majority)).toBe(true);
  });

  test('when a link is used, voided with the others or given back, then by a majority', async () => {
    const calls: Call[] = [];
    const links = new MongoLinkStore(
      recording<LinkDocument>('links', calls, [{ _id: 'l', expiresAt: T0, usedAt: T0 }]),
    );
    await links.use('d', 'reset', T0);
    await links.useAll('a@example.org', 'reset', T0);
    await links.release('l', T0);
    const writes = calls.filter((c) => c.method.startsWith('update'));
    expect(writes.map((c) => c.method)).toEqual(['updateOne', 'updateMany', 'updateOne']);
    expect(writes.every(majority)).toBe(true);
  });

  test('when the outbox drops expired mail, then it reads a bounded batch by the discardAfter index', async () => {
    const calls: Call[] = [];
    const outbox = new MongoMailOutbox(recording<OutboxDocument>('outbox', calls));
    await outbox.discardExpired(T0);
    expect(calls.map((c) => c.method)).toEqual(['find', 'sort', 'limit']);
    expect(calls[1]!.args[0]).toEqual({ discardAfter: 1 });
    expect(calls[2]!.args[0]).toBeLessThanOrEqual(1000);
    expect(INDEXES.outbox.map((i) => i.key)).toContainEqual({ discardAfter: 1 });
  });
});
