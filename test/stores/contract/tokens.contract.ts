// TokenStore: issued tokens by digest, live lists, revocation, rotation, trimming and purging.
// Live at `now` means revokedAt is null and expiresAt > now: a token dies at its expiry instant.
import { describe, expect, test } from 'vitest';
import type { Store } from '../../../src/domain/store.port.ts';
import type { TokenRecord } from '../../../src/domain/accounts/accounts.ports.ts';
import { at, HOUR, SECOND, T0, token, tokenId, user } from '../../support/builders.ts';
import type { ContractPart } from './context.ts';

const MINUTE = 60 * SECOND;
const ALICE = user(1);
const BOB = user(2);

/** Tokens belong to users (SQLite enforces it with a foreign key), so the users come first. */
async function seed(store: Store, ...tokens: TokenRecord[]): Promise<void> {
  await store.users.create(ALICE);
  await store.users.create(BOB);
  for (const t of tokens) await store.tokens.insert(t);
}

export const tokensContract: ContractPart = (_target, fixture) => {
  describe('TokenStore', () => {
    test('when tokens are inserted, then findByDigest returns each field for field, revokedAt null or a Date', async () => {
      const { store } = fixture();
      const live = token(1, ALICE.id, { createdAt: at(-MINUTE), expiresAt: at(HOUR) });
      const revoked = token(2, ALICE.id, { createdAt: at(-2 * MINUTE), expiresAt: at(HOUR), revokedAt: at(-SECOND) });
      await seed(store, live, revoked);
      expect(await store.tokens.findByDigest(live.digest)).toStrictEqual(live);
      expect(await store.tokens.findByDigest(revoked.digest)).toStrictEqual(revoked);
      expect(await store.tokens.findByDigest(token(3, ALICE.id).digest)).toBeNull();
    });

    test('when some tokens are revoked or expired, then listLive returns the others, newest first, with expiresAt = now dead', async () => {
      const { store } = fixture();
      const t1 = token(1, ALICE.id, { createdAt: at(-30 * MINUTE), expiresAt: at(30 * MINUTE) });
      const expiresNow = token(2, ALICE.id, { createdAt: at(-20 * MINUTE), expiresAt: T0 });
      const t3 = token(3, ALICE.id, { createdAt: at(-10 * MINUTE), expiresAt: at(1) });
      const revoked = token(4, ALICE.id, { createdAt: at(-5 * MINUTE), expiresAt: at(HOUR), revokedAt: at(-MINUTE) });
      const expired = token(5, ALICE.id, { createdAt: at(-2 * HOUR), expiresAt: at(-HOUR) });
      await seed(store, t1, expiresNow, t3, revoked, expired);
      expect(await store.tokens.listLive(ALICE.id, T0)).toStrictEqual([t3, t1]);
      // One millisecond later t3 reaches its expiry instant too.
      expect(await store.tokens.listLive(ALICE.id, at(1))).toStrictEqual([t1]);
    });

    test('when tokens share a createdAt, then listLive puts the last inserted first', async () => {
      const { store } = fixture();
      // Inserted in an order that is neither id order nor createdAt order.
      const [a, b, c] = [3, 1, 2].map((n) => token(n, ALICE.id, { createdAt: T0 }));
      const older = token(4, ALICE.id, { createdAt: at(-MINUTE) });
      await seed(store, a!, b!, c!, older);
      expect(await store.tokens.listLive(ALICE.id, at(SECOND))).toStrictEqual([c, b, a, older]);
    });

    test('when a user has no tokens, then listLive returns none, whatever other users have', async () => {
      const { store } = fixture();
      await seed(store, token(1, ALICE.id));
      expect(await store.tokens.listLive(BOB.id, at(SECOND))).toStrictEqual([]);
      expect(await store.tokens.listLive(user(3).id, at(SECOND))).toStrictEqual([]);
    });

    test('when a live token is revoked, then revoke is true once, revokedAt is that now, and false after', async () => {
      const { store } = fixture();
      const t = token(1, ALICE.id);
      const other = token(2, ALICE.id, { createdAt: at(-SECOND) });
      await seed(store, t, other);
      expect(await store.tokens.revoke(ALICE.id, t.id, at(SECOND))).toBe(true);
      expect(await store.tokens.findByDigest(t.digest)).toStrictEqual({ ...t, revokedAt: at(SECOND) });
      expect(await store.tokens.listLive(ALICE.id, at(2 * SECOND))).toStrictEqual([other]);
      // A second revocation changes nothing, not even the time.
      expect(await store.tokens.revoke(ALICE.id, t.id, at(2 * SECOND))).toBe(false);
      expect(await store.tokens.findByDigest(t.digest)).toStrictEqual({ ...t, revokedAt: at(SECOND) });
    });

    test('when a token found before is revoked, touched or revoked with the others, then findByDigest finds it changed', async () => {
      const { store } = fixture();
      const t = token(1, ALICE.id, { createdAt: at(-MINUTE), expiresAt: at(HOUR) });
      const kept = token(2, ALICE.id, { createdAt: at(-MINUTE), expiresAt: at(HOUR) });
      const other = token(3, ALICE.id, { createdAt: at(-MINUTE), expiresAt: at(HOUR) });
      await seed(store, t, kept, other);
      // Found, and found again, before each change: whatever the store remembers must not outlive it.
      expect(await store.tokens.findByDigest(t.digest)).toStrictEqual(t);
      expect(await store.tokens.findByDigest(t.digest)).toStrictEqual(t);
      await store.tokens.touch(t.id, at(SECOND), at(0));
      expect(await store.tokens.findByDigest(t.digest)).toStrictEqual({ ...t, lastUsedAt: at(SECOND) });
      expect(await store.tokens.revoke(ALICE.id, t.id, at(2 * SECOND))).toBe(true);
      expect(await store.tokens.findByDigest(t.digest)).toStrictEqual({
        ...t,
        lastUsedAt: at(SECOND),
        revokedAt: at(2 * SECOND),
      });
      expect(await store.tokens.findByDigest(other.digest)).toStrictEqual(other);
      expect(await store.tokens.revokeAllExcept(ALICE.id, kept.id, at(3 * SECOND))).toBe(1);
      expect(await store.tokens.findByDigest(other.digest)).toStrictEqual({ ...other, revokedAt: at(3 * SECOND) });
    });

    test("when a user revokes another user's token, then revoke is false and the token stays live", async () => {
      const { store } = fixture();
      const bobs = token(1, BOB.id);
      await seed(store, bobs);
      expect(await store.tokens.revoke(ALICE.id, bobs.id, at(SECOND))).toBe(false);
      expect(await store.tokens.findByDigest(bobs.digest)).toStrictEqual(bobs);
      expect(await store.tokens.listLive(BOB.id, at(SECOND))).toStrictEqual([bobs]);
    });

    test('when the token is expired (also exactly now) or unknown, then revoke is false and nothing changes', async () => {
      const { store } = fixture();
      const expired = token(1, ALICE.id, { createdAt: at(-2 * HOUR), expiresAt: at(-HOUR) });
      const expiresNow = token(2, ALICE.id, { createdAt: at(-HOUR), expiresAt: T0 });
      await seed(store, expired, expiresNow);
      expect(await store.tokens.revoke(ALICE.id, expired.id, T0)).toBe(false);
      expect(await store.tokens.revoke(ALICE.id, expiresNow.id, T0)).toBe(false);
      expect(await store.tokens.revoke(ALICE.id, tokenId(3), T0)).toBe(false);
      expect(await store.tokens.findByDigest(expired.digest)).toStrictEqual(expired);
      expect(await store.tokens.findByDigest(expiresNow.digest)).toStrictEqual(expiresNow);
    });

    test('when a live token is rotated, then it is revoked at now and the next one is inserted', async () => {
      const { store } = fixture();
      const old = token(1, ALICE.id, { createdAt: at(-MINUTE) });
      const next = token(2, ALICE.id, { createdAt: T0 });
      await seed(store, old);
      expect(await store.tokens.rotate(ALICE.id, old.id, next, T0)).toBe(true);
      expect(await store.tokens.findByDigest(old.digest)).toStrictEqual({ ...old, revokedAt: T0 });
      expect(await store.tokens.findByDigest(next.digest)).toStrictEqual(next);
      expect(await store.tokens.listLive(ALICE.id, at(SECOND))).toStrictEqual([next]);
    });

    test("when the old token is revoked, expired, unknown or not this user's, then rotate is false and inserts nothing", async () => {
      const { store } = fixture();
      const revoked = token(1, ALICE.id, { createdAt: at(-MINUTE), revokedAt: at(-SECOND) });
      const expired = token(2, ALICE.id, { createdAt: at(-2 * HOUR), expiresAt: T0 });
      const bobs = token(3, BOB.id, { createdAt: at(-MINUTE) });
      await seed(store, revoked, expired, bobs);
      const cases: Array<[string, number]> = [
        [revoked.id, 11],
        [expired.id, 12],
        [tokenId(4), 13],
        [bobs.id, 14],
      ];
      for (const [oldId, n] of cases) {
        const next = token(n, ALICE.id);
        expect(await store.tokens.rotate(ALICE.id, oldId, next, T0)).toBe(false);
        expect(await store.tokens.findByDigest(next.digest)).toBeNull();
      }
      expect(await store.tokens.findByDigest(revoked.digest)).toStrictEqual(revoked);
      expect(await store.tokens.findByDigest(expired.digest)).toStrictEqual(expired);
      expect(await store.tokens.listLive(ALICE.id, T0)).toStrictEqual([]);
      expect(await store.tokens.listLive(BOB.id, T0)).toStrictEqual([bobs]);
    });

    test('when all but the newest are revoked, then exactly `keep` live tokens stay (ties: last inserted newest) and other users keep theirs', async () => {
      const { store } = fixture();
      const [t1, t2, t3] = [1, 2, 3].map((n) => token(n, ALICE.id, { createdAt: at((n - 6) * MINUTE) }));
      // Same createdAt: t4 was inserted last, so it is the newest.
      const t5 = token(5, ALICE.id, { createdAt: at(-MINUTE) });
      const t4 = token(4, ALICE.id, { createdAt: at(-MINUTE) });
      const expired = token(6, ALICE.id, { createdAt: at(-2 * HOUR), expiresAt: at(-HOUR) });
      const revoked = token(7, ALICE.id, { createdAt: at(-SECOND), revokedAt: at(-SECOND) });
      const bobs = [8, 9].map((n) => token(n, BOB.id, { createdAt: at(-n * MINUTE) }));
      await seed(store, t1!, t2!, t3!, t5, t4, expired, revoked, ...bobs);

      expect(await store.tokens.revokeAllButNewest(ALICE.id, 3, T0)).toBe(2);
      expect(await store.tokens.listLive(ALICE.id, T0)).toStrictEqual([t4, t5, t3]);
      expect(await store.tokens.findByDigest(t1!.digest)).toStrictEqual({ ...t1, revokedAt: T0 });

      expect(await store.tokens.revokeAllButNewest(ALICE.id, 1, at(SECOND))).toBe(2);
      expect(await store.tokens.listLive(ALICE.id, at(SECOND))).toStrictEqual([t4]);
      expect(await store.tokens.findByDigest(t5.digest)).toStrictEqual({ ...t5, revokedAt: at(SECOND) });

      // Dead tokens were not counted and are as they were.
      expect(await store.tokens.findByDigest(expired.digest)).toStrictEqual(expired);
      expect(await store.tokens.findByDigest(revoked.digest)).toStrictEqual(revoked);
      expect(await store.tokens.listLive(BOB.id, at(SECOND))).toStrictEqual(bobs);
    });

    test("when every token but one is revoked, then the user's other live tokens are, the kept one and dead ones are as they were, and other users are untouched", async () => {
      const { store } = fixture();
      const kept = token(1, ALICE.id, { createdAt: at(-MINUTE) });
      const others = [2, 3].map((n) => token(n, ALICE.id, { createdAt: at(-n * MINUTE) }));
      const expired = token(4, ALICE.id, { createdAt: at(-HOUR), expiresAt: at(-1) });
      const bobs = token(5, BOB.id, { createdAt: at(-MINUTE) });
      await seed(store, kept, ...others, expired, bobs);
      expect(await store.tokens.revokeAllExcept(ALICE.id, kept.id, T0)).toBe(2);
      expect(await store.tokens.listLive(ALICE.id, T0)).toStrictEqual([kept]);
      for (const t of others) expect(await store.tokens.findByDigest(t.digest)).toStrictEqual({ ...t, revokedAt: T0 });
      expect(await store.tokens.findByDigest(expired.digest)).toStrictEqual(expired);
      expect(await store.tokens.listLive(BOB.id, T0)).toStrictEqual([bobs]);
      expect(await store.tokens.revokeAllExcept(ALICE.id, kept.id, T0)).toBe(0);
      // Another user's token id keeps nothing of this user.
      expect(await store.tokens.revokeAllExcept(ALICE.id, bobs.id, at(SECOND))).toBe(1);
      expect(await store.tokens.listLive(BOB.id, at(SECOND))).toStrictEqual([bobs]);
    });

    test('when a session is inserted with keep N, then it is live, and of the others only the N - 1 newest sessions stay live; API keys and other users are untouched', async () => {
      const { store } = fixture();
      const older = [1, 2, 3].map((n) => token(n, ALICE.id, { createdAt: at(-n * MINUTE) }));
      const key = token(4, ALICE.id, { createdAt: at(-HOUR), expiresAt: at(HOUR), kind: 'key', name: 'ci' });
      const bobs = token(5, BOB.id, { createdAt: at(-MINUTE) });
      await seed(store, ...older, key, bobs);
      const fresh = token(6, ALICE.id, { createdAt: T0 });
      expect(await store.tokens.insertSession(fresh, 2, T0)).toBe(2);
      expect(await store.tokens.listLive(ALICE.id, T0)).toStrictEqual([fresh, older[0], key]);
      for (const t of older.slice(1))
        expect(await store.tokens.findByDigest(t.digest)).toStrictEqual({ ...t, revokedAt: T0 });
      expect(await store.tokens.listLive(BOB.id, T0)).toStrictEqual([bobs]);
      const another = token(7, ALICE.id, { createdAt: at(SECOND) });
      expect(await store.tokens.insertSession(another, 5, at(SECOND))).toBe(0);
      expect(await store.tokens.findByDigest(another.digest)).toStrictEqual(another);
    });

    test('when a session is inserted against a password version the account has left, then insertSession is null and no token of it works', async () => {
      const { store } = fixture();
      await seed(store);
      await store.users.setPassword({
        userId: ALICE.id,
        passwordHash: 'h2',
        revokeKeys: false,
        keepTokenId: null,
        now: T0,
      });
      const stale = token(1, ALICE.id, { createdAt: at(SECOND), passwordVersion: 0 });
      expect(await store.tokens.insertSession(stale, 5, at(SECOND))).toBeNull();
      // A store that inserted it first has revoked it again: either way it is not live.
      expect(await store.tokens.listLive(ALICE.id, at(SECOND))).toStrictEqual([]);
      const current = token(2, ALICE.id, { createdAt: at(SECOND), passwordVersion: 1 });
      expect(await store.tokens.insertSession(current, 5, at(SECOND))).toBe(0);
      expect(await store.tokens.listLive(ALICE.id, at(SECOND))).toStrictEqual([current]);
    });

    test("when a token is found for authentication, then findHeld gives it with its account's credential state now", async () => {
      const { store } = fixture();
      const session = token(1, ALICE.id, { createdAt: at(-MINUTE), expiresAt: at(HOUR) });
      const key = token(2, ALICE.id, { kind: 'key', createdAt: at(-MINUTE), expiresAt: at(HOUR) });
      await seed(store, session, key);
      expect(await store.tokens.findHeld(session.digest)).toStrictEqual({
        token: session,
        holder: { passwordVersion: 0, keysFromVersion: 0 },
      });
      await store.users.setPassword({
        userId: ALICE.id,
        passwordHash: 'h2',
        revokeKeys: true,
        keepTokenId: null,
        now: T0,
      });
      expect(await store.tokens.findHeld(key.digest)).toStrictEqual({
        token: { ...key, revokedAt: T0 },
        holder: { passwordVersion: 1, keysFromVersion: 1 },
      });
      expect(await store.tokens.findHeld(token(3, ALICE.id).digest)).toBeNull();
    });

    test('when keep is at least the live count, then nothing is revoked; when keep is 0, then every live token is', async () => {
      const { store } = fixture();
      const tokens = [1, 2].map((n) => token(n, ALICE.id, { createdAt: at(-n * MINUTE) }));
      await seed(store, ...tokens);
      expect(await store.tokens.revokeAllButNewest(ALICE.id, 2, T0)).toBe(0);
      expect(await store.tokens.revokeAllButNewest(ALICE.id, 5, T0)).toBe(0);
      expect(await store.tokens.listLive(ALICE.id, T0)).toStrictEqual(tokens);
      expect(await store.tokens.revokeAllButNewest(ALICE.id, 0, T0)).toBe(2);
      expect(await store.tokens.listLive(ALICE.id, T0)).toStrictEqual([]);
    });

    test('when a key and a session are inserted, then kind, name and lastUsedAt come back as they were', async () => {
      const { store } = fixture();
      const key = token(1, ALICE.id, {
        kind: 'key',
        name: 'nightly sync — ünïcode',
        createdAt: at(-MINUTE),
        expiresAt: at(365 * 24 * HOUR),
      });
      const used = token(2, ALICE.id, { createdAt: at(-2 * MINUTE), lastUsedAt: at(-SECOND) });
      await seed(store, key, used);
      expect(await store.tokens.findByDigest(key.digest)).toStrictEqual(key);
      expect(await store.tokens.findByDigest(used.digest)).toStrictEqual(used);
      expect(await store.tokens.listLive(ALICE.id, T0)).toStrictEqual([key, used]);
    });

    test('when sessions are trimmed, then API keys are neither counted nor revoked', async () => {
      const { store } = fixture();
      const keys = [1, 2].map((n) => token(n, ALICE.id, { kind: 'key', createdAt: at(-n * SECOND) }));
      const sessions = [3, 4, 5].map((n) => token(n, ALICE.id, { createdAt: at(-n * MINUTE) }));
      const oldKey = token(6, ALICE.id, { kind: 'key', createdAt: at(-HOUR + SECOND) });
      await seed(store, ...keys, ...sessions, oldKey);
      // Keep 2: the two newest sessions stay, the third goes; the keys (newer and older) all stay.
      expect(await store.tokens.revokeAllButNewest(ALICE.id, 2, T0)).toBe(1);
      expect(await store.tokens.listLive(ALICE.id, T0)).toStrictEqual([...keys, sessions[0], sessions[1], oldKey]);
      expect(await store.tokens.revokeAllButNewest(ALICE.id, 0, T0)).toBe(2);
      expect(await store.tokens.listLive(ALICE.id, T0)).toStrictEqual([...keys, oldKey]);
    });

    test('when a token is touched, then lastUsedAt is set unless it is already at or after notBefore', async () => {
      const { store } = fixture();
      const fresh = token(1, ALICE.id);
      const recent = token(2, ALICE.id, { lastUsedAt: at(-30 * SECOND) });
      const stale = token(3, ALICE.id, { lastUsedAt: at(-2 * MINUTE) });
      const exactly = token(4, ALICE.id, { lastUsedAt: at(-MINUTE) });
      await seed(store, fresh, recent, stale, exactly);
      for (const t of [fresh, recent, stale, exactly]) await store.tokens.touch(t.id, T0, at(-MINUTE));
      expect((await store.tokens.findByDigest(fresh.digest))!.lastUsedAt).toStrictEqual(T0);
      expect((await store.tokens.findByDigest(recent.digest))!.lastUsedAt).toStrictEqual(at(-30 * SECOND));
      expect((await store.tokens.findByDigest(stale.digest))!.lastUsedAt).toStrictEqual(T0);
      expect((await store.tokens.findByDigest(exactly.digest))!.lastUsedAt).toStrictEqual(at(-MINUTE));
      // An unknown id is no error, and touches nothing.
      await store.tokens.touch(tokenId(9), at(SECOND), T0);
      expect((await store.tokens.findByDigest(fresh.digest))!.lastUsedAt).toStrictEqual(T0);
    });

    test('when dead tokens are purged, then only those expired or revoked strictly before `before` are deleted, of every user', async () => {
      const { store } = fixture();
      const expiredBefore = token(1, ALICE.id, { createdAt: at(-HOUR - 1), expiresAt: at(-1) });
      const revokedBefore = token(2, BOB.id, { createdAt: at(-MINUTE), revokedAt: at(-1) });
      const kept = [
        token(3, ALICE.id, { createdAt: at(-HOUR), expiresAt: T0 }),
        token(4, ALICE.id, { createdAt: at(-MINUTE), revokedAt: T0 }),
        token(5, ALICE.id, { createdAt: at(-MINUTE), expiresAt: at(SECOND) }),
        token(6, BOB.id, { createdAt: at(-MINUTE), revokedAt: at(SECOND) }),
        token(7, BOB.id, { createdAt: at(-MINUTE) }),
      ];
      await seed(store, expiredBefore, revokedBefore, ...kept);
      expect(await store.tokens.purgeDead(T0)).toBe(2);
      expect(await store.tokens.findByDigest(expiredBefore.digest)).toBeNull();
      expect(await store.tokens.findByDigest(revokedBefore.digest)).toBeNull();
      for (const t of kept) expect(await store.tokens.findByDigest(t.digest)).toStrictEqual(t);
      expect(await store.tokens.purgeDead(T0)).toBe(0);
    });

    test('when a publishable key is inserted, renamed and re-scoped, then its scope comes back as kept, and updateKey is null for a dead key or another user', async () => {
      const { store } = fixture();
      const scope = {
        origins: ['https://www.example.org', 'https://*.example.net'],
        perMinute: 300,
        perDay: 100_000,
        perVisitorPerMinute: 60,
      };
      const page = { ...token(1, ALICE.id, { kind: 'key', expiresAt: at(HOUR) }), publishable: scope };
      const secret = token(2, ALICE.id, { kind: 'key', expiresAt: at(HOUR) });
      const gone = {
        ...token(3, ALICE.id, { kind: 'key', expiresAt: at(HOUR), revokedAt: at(-SECOND) }),
        publishable: scope,
      };
      await seed(store, page, secret, gone);
      expect(await store.tokens.findByDigest(page.digest)).toStrictEqual(page);
      expect((await store.tokens.findByDigest(secret.digest))?.publishable ?? null).toBeNull();

      const narrower = { ...scope, origins: ['https://www.example.org'], perMinute: 30, perVisitorPerMinute: 10 };
      const updated = await store.tokens.updateKey(
        ALICE.id,
        page.id,
        { name: 'sign-up form', publishable: narrower },
        T0,
      );
      expect(updated).toStrictEqual({ ...page, name: 'sign-up form', publishable: narrower });
      expect(await store.tokens.findByDigest(page.digest)).toStrictEqual(updated);
      // A name alone leaves the scope as it is.
      expect(await store.tokens.updateKey(ALICE.id, page.id, { name: 'form' }, T0)).toStrictEqual({
        ...page,
        name: 'form',
        publishable: narrower,
      });
      expect(await store.tokens.updateKey(ALICE.id, gone.id, { name: 'x' }, T0)).toBeNull();
      expect(await store.tokens.updateKey(BOB.id, page.id, { name: 'x' }, T0)).toBeNull();
      expect(await store.tokens.updateKey(ALICE.id, tokenId(9), { name: 'x' }, T0)).toBeNull();
      expect((await store.tokens.findByDigest(page.digest))?.name).toBe('form');
    });
  });
};
