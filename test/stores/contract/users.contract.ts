// UserStore: accounts by e-mail and id, one account per e-mail.
import { describe, expect, test } from 'vitest';
import { EmailTakenError } from '../../../src/domain/errors.ts';
import { user, userId } from '../../support/builders.ts';
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

    test('when a password hash is set, then only that user changes, and only its hash', async () => {
      const { store } = fixture();
      const alice = user(1);
      const bob = user(2);
      await store.users.create(alice);
      await store.users.create(bob);
      await store.users.setPasswordHash(alice.id, '$argon2id$v=19$m=19456,t=2,p=1$new$hash');
      const changed = { ...alice, passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$new$hash' };
      expect(await store.users.findById(alice.id)).toStrictEqual(changed);
      expect(await store.users.findByEmail(alice.email)).toStrictEqual(changed);
      expect(await store.users.findById(bob.id)).toStrictEqual(bob);
    });
  });
};
