// KeyService on the fakes: named API keys, capped per user, kept apart from sessions and users.
import { describe, expect, test } from 'vitest';
import { NotFoundError, TooManyKeysError } from '../../src/domain/shared/errors.ts';
import { MAX_LIVE_KEYS } from '../../src/domain/accounts/keys.service.ts';
import { fakeServices } from '../support/fakes/services.ts';

describe('API keys', () => {
  test('when a key is created, then it authenticates its user and lives the days asked', async () => {
    const { services, signedIn, clock } = fakeServices();
    const { principal } = await signedIn();
    const key = await services.keys.create(principal, 'nightly sync', 7, 'correct-horse-1');
    expect(key.record).toMatchObject({ kind: 'key', name: 'nightly sync', userId: principal.userId });
    expect(key.record.expiresAt.getTime() - clock.now().getTime()).toBe(7 * 86_400_000);
    expect((await services.auth.authenticate(key.value)).userId).toBe(principal.userId);
  });

  test(`when a user holds ${MAX_LIVE_KEYS} live keys, then the next is TooManyKeysError; another user is not affected`, async () => {
    const { services, signedIn } = fakeServices();
    const ada = await signedIn('ada@example.com');
    const bob = await signedIn('bob@example.com');
    for (let i = 0; i < MAX_LIVE_KEYS; i++) await services.keys.create(ada.principal, `k${i}`, 30, 'correct-horse-1');
    await expect(services.keys.create(ada.principal, 'one more', 30, 'correct-horse-1')).rejects.toBeInstanceOf(
      TooManyKeysError,
    );
    await expect(services.keys.create(bob.principal, 'first', 30, 'correct-horse-1')).resolves.toBeDefined();
  });

  test("when a key is rotated, then the old value stops working; another user's key is NotFoundError", async () => {
    const { services, signedIn } = fakeServices();
    const ada = await signedIn('ada@example.com');
    const bob = await signedIn('bob@example.com');
    const key = await services.keys.create(ada.principal, 'ci', 30, 'correct-horse-1');
    const rotated = await services.keys.rotate(ada.principal, key.record.id, 'correct-horse-1');
    await expect(services.auth.authenticate(key.value)).rejects.toMatchObject({ reason: 'revoked' });
    expect(rotated.record.name).toBe('ci');
    await expect(services.keys.rotate(bob.principal, rotated.record.id, 'correct-horse-1')).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});
