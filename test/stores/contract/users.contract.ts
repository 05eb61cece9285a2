// UserStore: accounts by e-mail and id, one account per e-mail.
import { describe, expect, test } from 'vitest';
import { EmailTakenError } from '../../../src/domain/shared/errors.ts';
import { at, HOUR, SECOND, token, user, userId } from '../../support/builders.ts';
import type { ContractPart } from './context.ts';

export const usersContract: ContractPart = (_target, fixture) => {
  describe('UserStore', () => {
    test('when a user is created, then findByEmail and findById return it field for field', async () => {
      const { store } = fixture();
      const alice = user(1);
      await store.users.create(alice);
      expect(await store.users.findByEmail(alice.email)).toStrictEqual(alice);
      expect(await store.users.findById(alice.id)).toStrictEqual(alice);
    });

    test('when an e-mail is in use, then create throws EmailTakenError and the first user is unchanged', async () => {
      const { store } = fixture();
      const first = user(1);
      await store.users.create(first);
      const second = user(2, { email: first.email });
      await expect(store.users.create(second)).rejects.toBeInstanceOf(EmailTakenError);
      expect(await store.users.findByEmail(first.email)).toStrictEqual(first);
      expect(await store.users.findById(second.id)).toBeNull();
    });

    test('when the e-mail or id is unknown, then findByEmail and findById return null', async () => {
      const { store } = fixture();
      // One user in the store, so that "null" is not just "the store is empty".
      await store.users.create(user(1));
      expect(await store.users.findByEmail('user2@example.com')).toBeNull();
      expect(await store.users.findById(userId(2))).toBeNull();
    });

    test('when a hash is upgraded, then only over the hash it replaces: a compare and set', async () => {
      const { store } = fixture();
      const alice = user(1);
      const bob = user(2);
      await store.users.create(alice);
      await store.users.create(bob);
      const upgraded = '$argon2id$v=19$m=19456,t=2,p=1$new$hash';
      expect(await store.users.rehash(alice.id, 'not-the-hash', upgraded)).toBe(false);
      expect(await store.users.findById(alice.id)).toStrictEqual(alice);
      expect(await store.users.rehash(alice.id, alice.passwordHash, upgraded)).toBe(true);
      expect(await store.users.findById(alice.id)).toStrictEqual({ ...alice, passwordHash: upgraded });
      expect(await store.users.findByEmail(alice.email)).toStrictEqual({ ...alice, passwordHash: upgraded });
      expect(await store.users.findById(bob.id)).toStrictEqual(bob);
    });

    test('when a password is set, then the version moves, the kept token is carried over, the other sessions are revoked and keys kept', async () => {
      const { store } = fixture();
      const alice = user(1);
      const bob = user(2);
      await store.users.create(alice);
      await store.users.create(bob);
      const kept = token(1, alice.id, { createdAt: at(-HOUR / 2), expiresAt: at(HOUR) });
      const session = token(2, alice.id, { createdAt: at(-HOUR / 2), expiresAt: at(HOUR) });
      const key = token(3, alice.id, { kind: 'key', createdAt: at(-HOUR / 2), expiresAt: at(HOUR) });
      const bobs = token(4, bob.id, { createdAt: at(-HOUR / 2), expiresAt: at(HOUR) });
      for (const t of [kept, session, key, bobs]) await store.tokens.insert(t);
      const hash = '$argon2id$v=19$m=19456,t=2,p=1$new$hash';
      const now = at(SECOND);
      expect(
        await store.users.setPassword({
          userId: alice.id,
          passwordHash: hash,
          revokeKeys: false,
          keepTokenId: kept.id,
          now,
        }),
      ).toBe(1);
      expect(await store.users.findById(alice.id)).toStrictEqual({ ...alice, passwordHash: hash, passwordVersion: 1 });
      expect(await store.tokens.findByDigest(kept.digest)).toStrictEqual({
        ...kept,
        passwordVersion: 1,
        authenticatedAt: now,
      });
      expect(await store.tokens.findByDigest(session.digest)).toStrictEqual({ ...session, revokedAt: now });
      expect(await store.tokens.findByDigest(key.digest)).toStrictEqual(key);
      expect(await store.tokens.findByDigest(bobs.digest)).toStrictEqual(bobs);
      expect(await store.users.findById(bob.id)).toStrictEqual(bob);
      // With the keys: every key but the one kept goes, and keys of this version on hold.
      const later = at(2 * SECOND);
      expect(
        await store.users.setPassword({
          userId: alice.id,
          passwordHash: hash,
          revokeKeys: true,
          keepTokenId: null,
          now: later,
        }),
      ).toBe(2);
      expect(await store.users.findById(alice.id)).toStrictEqual({
        ...alice,
        passwordHash: hash,
        passwordVersion: 2,
        keysFromVersion: 2,
      });
      expect(await store.tokens.findByDigest(key.digest)).toStrictEqual({ ...key, revokedAt: later });
      expect(await store.tokens.findByDigest(kept.digest)).toStrictEqual({
        ...kept,
        passwordVersion: 1,
        authenticatedAt: now,
        revokedAt: later,
      });
      expect(
        await store.users.setPassword({
          userId: user(3).id,
          passwordHash: hash,
          revokeKeys: true,
          keepTokenId: null,
          now,
        }),
      ).toBe(-1);
    });
  });
};
