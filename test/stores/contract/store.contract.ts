// Store as a whole: health, and what survives a restart (the request log's durability is in
// requests.contract.ts).
import { describe, expect, test } from 'vitest';
import { school, stored, token, user } from '../../support/builders.ts';
import type { ContractPart } from './context.ts';

export const storeContract: ContractPart = (_target, fixture) => {
  describe('Store', () => {
    test('when the store is healthy, then ping resolves', async () => {
      const { store } = fixture();
      await expect(store.ping()).resolves.toBeUndefined();
    });

    test('when the store is reopened, then users, tokens and schools are there and it answers ping', async () => {
      const f = fixture();
      const alice = user(1);
      const t = token(1, alice.id);
      const mit = school('Massachusetts Institute of Technology', { city: 'Cambridge', aliases: ['MIT'] });
      await f.store.users.create(alice);
      await f.store.tokens.insert(t);
      await f.store.schools.upsertMany([mit]);
      const reopened = await f.reopen();
      await expect(reopened.ping()).resolves.toBeUndefined();
      expect(await reopened.users.findById(alice.id)).toStrictEqual(alice);
      expect(await reopened.tokens.findByDigest(t.digest)).toStrictEqual(t);
      expect(await reopened.schools.findById(mit.id)).toStrictEqual(stored(mit));
      expect(await reopened.schools.count()).toBe(1);
    });
  });
};
