// AuthService on the fakes: accounts, login, tokens and their life, one user's tokens apart from another's.
import { describe, expect, test } from 'vitest';
import { MAX_LIVE_TOKENS } from '../../src/domain/accounts/credentials.ts';
import * as errors from '../../src/domain/shared/errors.ts';
import { fakeServices } from '../support/fakes/services.ts';

describe('login', () => {
  test('when the password is right, then a token authenticates its user until it expires', async () => {
    const { services, clock } = fakeServices({ tokenTtlSeconds: 60 });
    const { userId } = await services.auth.createUser('Ada@Example.com', 'correct-horse-1');
    const token = await services.auth.login('ada@example.com', 'correct-horse-1');
    expect(token.value).toMatch(/^ssk_[A-Za-z0-9_-]{43}$/);
    expect(token.expiresIn).toBe(60);
    expect(await services.auth.authenticate(token.value)).toEqual({
      userId,
      tokenId: token.tokenId,
      kind: 'session',
      passwordVersion: 0,
      authenticatedAt: clock.now(),
    });
    clock.advance(61_000);
    await expect(services.auth.authenticate(token.value)).rejects.toMatchObject({ reason: 'expired' });
  });

  test('when the password is wrong or the e-mail unknown, then the same errors.InvalidCredentialsError', async () => {
    const { services } = fakeServices();
    await services.auth.createUser('ada@example.com', 'correct-horse-1');
    await expect(services.auth.login('ada@example.com', 'wrong-horse-1')).rejects.toBeInstanceOf(
      errors.InvalidCredentialsError,
    );
    await expect(services.auth.login('bob@example.com', 'correct-horse-1')).rejects.toBeInstanceOf(
      errors.InvalidCredentialsError,
    );
  });

  test('when an account is created twice or with a short password, then it is refused', async () => {
    const { services } = fakeServices();
    await services.auth.createUser('ada@example.com', 'correct-horse-1');
    await expect(services.auth.createUser('ADA@example.com', 'another-horse-1')).rejects.toBeInstanceOf(
      errors.EmailTakenError,
    );
    await expect(services.auth.createUser('bob@example.com', 'short')).rejects.toBeInstanceOf(errors.InvalidInputError);
  });

  test('when a stored hash was made with other settings, then a login re-hashes the password', async () => {
    const { services, store, hasher } = fakeServices();
    const { userId } = await services.auth.createUser('ada@example.com', 'correct-horse-1');
    await store.users.rehash(userId, (await store.users.findById(userId))!.passwordHash, 'old0$correct-horse-1');
    await services.auth.login('ada@example.com', 'correct-horse-1');
    expect((await store.users.findById(userId))?.passwordHash.startsWith(hasher.prefix)).toBe(true);
  });

  test(`when a user logs in more than ${MAX_LIVE_TOKENS} times, then the oldest sessions are revoked`, async () => {
    const { services, clock } = fakeServices();
    await services.auth.createUser('ada@example.com', 'correct-horse-1');
    const first = await services.auth.login('ada@example.com', 'correct-horse-1');
    for (let i = 0; i < MAX_LIVE_TOKENS; i++) {
      clock.advance(1);
      await services.auth.login('ada@example.com', 'correct-horse-1');
    }
    await expect(services.auth.authenticate(first.value)).rejects.toBeInstanceOf(errors.UnauthenticatedError);
  });
});

describe('tokens', () => {
  test('when a token is absent, malformed or unknown, then errors.UnauthenticatedError says which', async () => {
    const { services } = fakeServices();
    await expect(services.auth.authenticate(undefined)).rejects.toMatchObject({ reason: 'missing' });
    await expect(services.auth.authenticate('not-a-token')).rejects.toMatchObject({ reason: 'malformed' });
    await expect(services.auth.authenticate(`ssk_${'A'.repeat(43)}`)).rejects.toMatchObject({ reason: 'unknown' });
  });

  test('when the current token is revoked or rotated, then it stops working and the new one works', async () => {
    const { services, signedIn } = fakeServices();
    const { token, principal } = await signedIn();
    const next = await services.auth.rotate(principal);
    await expect(services.auth.authenticate(token.value)).rejects.toMatchObject({ reason: 'revoked' });
    const nextPrincipal = await services.auth.authenticate(next.value);
    await services.auth.revokeCurrent(nextPrincipal);
    await expect(services.auth.authenticate(next.value)).rejects.toMatchObject({ reason: 'revoked' });
  });

  test("when a user lists or revokes tokens, then only their own: another user's token is errors.NotFoundError", async () => {
    const { services, signedIn } = fakeServices();
    const ada = await signedIn('ada@example.com');
    const bob = await signedIn('bob@example.com');
    const listed = await services.auth.listTokens(ada.principal);
    expect(listed.map((t) => [t.id, t.current])).toEqual([[ada.token.tokenId, true]]);
    await expect(services.auth.revokeById(ada.principal, bob.token.tokenId)).rejects.toBeInstanceOf(
      errors.NotFoundError,
    );
    expect(await services.auth.authenticate(bob.token.value)).toEqual(bob.principal);
  });

  test('when the password is changed, then every other session ends, keys stay; a wrong current password is errors.WrongPasswordError', async () => {
    const { services, signedIn, clock } = fakeServices();
    const { token, principal } = await signedIn();
    const other = await services.auth.login('ada@example.com', 'correct-horse-1');
    const key = await services.keys.create(principal, 'ci', 30, 'correct-horse-1');
    await expect(services.auth.changePassword(principal, 'wrong-horse-1', 'new-horse-12')).rejects.toBeInstanceOf(
      errors.WrongPasswordError,
    );
    clock.advance(1000);
    await services.auth.changePassword(principal, 'correct-horse-1', 'new-horse-12');
    await expect(services.auth.authenticate(other.value)).rejects.toMatchObject({ reason: 'revoked' });
    // The token that asked keeps working, on the new password, signed in as of the change.
    expect(await services.auth.authenticate(token.value)).toEqual({
      ...principal,
      passwordVersion: 1,
      authenticatedAt: clock.now(),
    });
    expect((await services.auth.authenticate(key.value)).kind).toBe('key');
    await expect(services.auth.login('ada@example.com', 'correct-horse-1')).rejects.toBeInstanceOf(
      errors.InvalidCredentialsError,
    );
  });

  test('when the password is changed with the keys, then every key goes too but the token that asked', async () => {
    const { services, signedIn } = fakeServices();
    const { token, principal } = await signedIn();
    const key = await services.keys.create(principal, 'ci', 30, 'correct-horse-1');
    await services.auth.changePassword(principal, 'correct-horse-1', 'new-horse-12', true);
    await expect(services.auth.authenticate(key.value)).rejects.toMatchObject({ reason: 'revoked' });
    expect((await services.auth.authenticate(token.value)).passwordVersion).toBe(1);
  });

  test('when a login checked the old password while it was changed, then its session is refused, whenever it comes', async () => {
    // The race of issue 38: a login reads the hash, argon2 runs, the password changes, and the
    // login issues its token after the change. The store is made to answer the login's read with
    // the account as it was (the change lands during argon2).
    const { services, store, signedIn } = fakeServices();
    const { principal } = await signedIn();
    const before = await store.users.findByEmail('ada@example.com');
    const findByEmail = store.users.findByEmail.bind(store.users);
    store.users.findByEmail = async (_email) => {
      store.users.findByEmail = findByEmail;
      await services.auth.changePassword(principal, 'correct-horse-1', 'new-horse-12');
      return before;
    };
    await expect(services.auth.login('ada@example.com', 'correct-horse-1')).rejects.toBeInstanceOf(
      errors.InvalidCredentialsError,
    );
    expect((await services.auth.listTokens(principal)).map((t) => t.id)).toEqual([principal.tokenId]);
  });

  test('when a store issued a session of the old password anyway, then it does not authenticate: the version is checked at use', async () => {
    const { services, store, signedIn, clock } = fakeServices();
    const { principal } = await signedIn();
    const stale = await services.auth.login('ada@example.com', 'correct-horse-1');
    // A password change whose revocations did not happen (a failover between its steps).
    const user = (await store.users.findByEmail('ada@example.com'))!;
    const revokeOthers = store.tokens.passwordChanged.bind(store.tokens);
    store.tokens.passwordChanged = () => {};
    await store.users.setPassword({
      userId: user.id,
      passwordHash: 'fake1$new-horse-12',
      revokeKeys: false,
      keepTokenId: null,
      now: clock.now(),
    });
    store.tokens.passwordChanged = revokeOthers;
    await expect(services.auth.authenticate(stale.value)).rejects.toMatchObject({ reason: 'revoked' });
    await expect(services.auth.rotate(principal)).resolves.toBeDefined();
  });

  test('when a session is rotated, then the new token expires at the absolute session lifetime at the latest, and after it rotation is refused', async () => {
    const { services, signedIn, clock } = fakeServices({ tokenTtlSeconds: 3600, sessionMaxSeconds: 3 * 3600 });
    let { token, principal } = await signedIn();
    const end = clock.now().getTime() + 3 * 3600_000;
    expect(token.sessionExpiresAt.getTime()).toBe(end);
    for (let i = 0; i < 2; i++) {
      clock.advance(3600_000 - 1000);
      token = await services.auth.rotate(principal);
      principal = await services.auth.authenticate(token.value);
      expect(token.sessionExpiresAt.getTime()).toBe(end);
      expect(token.expiresAt.getTime()).toBe(Math.min(clock.now().getTime() + 3600_000, end));
    }
    // The third rotation is cut at the session's end, 3 s after now.
    clock.advance(3600_000 - 1000);
    token = await services.auth.rotate(principal);
    expect(token.expiresAt.getTime()).toBe(end);
    principal = await services.auth.authenticate(token.value);
    clock.advance(3000);
    await expect(services.auth.authenticate(token.value)).rejects.toMatchObject({ reason: 'expired' });
    await expect(services.auth.rotate(principal)).rejects.toMatchObject({ reason: 'expired' });
    // A login (the password given again) starts a new session.
    const fresh = await services.auth.login('ada@example.com', 'correct-horse-1');
    expect(fresh.sessionExpiresAt.getTime()).toBe(clock.now().getTime() + 3 * 3600_000);
  });
});

describe('authenticateMetered (a metered request: the token as the store remembers it)', () => {
  const input = { query: 'harvard', offset: 0, limit: 25 };

  test('when the store remembers a live token used within the minute, then it is taken without a read, and the principal says so', async () => {
    const { services, store, clock } = fakeServices();
    const { userId } = await services.auth.createUser('ada@example.com', 'correct-horse-1');
    const token = await services.auth.login('ada@example.com', 'correct-horse-1');
    // Not remembered yet: read (and its use recorded), as authenticate does.
    const principal = {
      userId,
      tokenId: token.tokenId,
      kind: 'session',
      passwordVersion: 0,
      authenticatedAt: clock.now(),
    };
    expect(await services.auth.authenticateMetered(token.value)).toEqual(principal);
    const reads = countReads(store.tokens);
    expect(await services.auth.authenticateMetered(token.value)).toEqual({ ...principal, remembered: true });
    expect(reads()).toBe(0);
    // Its use last recorded over a minute ago: read and recorded again.
    clock.advance(61_000);
    expect(await services.auth.authenticateMetered(token.value)).not.toHaveProperty('remembered');
    expect(reads()).toBe(1);
    // Expired: read, and refused as expired.
    clock.advance(3600_000);
    await expect(services.auth.authenticateMetered(token.value)).rejects.toMatchObject({ reason: 'expired' });
  });

  test('when a remembered token was revoked behind the store, then the search it authenticates is refused as revoked and not metered', async () => {
    const { services, store, clock } = fakeServices();
    const { userId } = await services.auth.createUser('ada@example.com', 'correct-horse-1');
    const token = await services.auth.login('ada@example.com', 'correct-horse-1');
    await services.auth.authenticateMetered(token.value);
    // Another process revokes it: the fake's remembered copy is the one found before.
    expect(await store.tokens.revoke(userId, token.tokenId, clock.now())).toBe(true);
    const principal = await services.auth.authenticateMetered(token.value);
    expect(principal.remembered).toBe(true);
    await expect(services.search.search(principal, input)).rejects.toMatchObject({
      name: 'UnauthenticatedError',
      reason: 'revoked',
    });
    await expect(services.search.meter(principal, input)).rejects.toMatchObject({ reason: 'revoked' });
    expect((await store.requests.usage(userId)).count).toBe(0);
    // Read again, it is refused at once.
    await expect(services.auth.authenticate(token.value)).rejects.toMatchObject({ reason: 'revoked' });
  });

  test('when the password of a remembered session changed behind the store, then its search is refused and not metered', async () => {
    const { services, store, clock } = fakeServices();
    const { userId } = await services.auth.createUser('ada@example.com', 'correct-horse-1');
    const token = await services.auth.login('ada@example.com', 'correct-horse-1');
    await services.auth.authenticateMetered(token.value);
    // Another process changes the password; its revocations are not seen here either.
    const revokeOthers = store.tokens.passwordChanged.bind(store.tokens);
    store.tokens.passwordChanged = () => {};
    await store.users.setPassword({
      userId,
      passwordHash: 'fake1$new-horse-12',
      revokeKeys: false,
      keepTokenId: null,
      now: clock.now(),
    });
    store.tokens.passwordChanged = revokeOthers;
    const principal = await services.auth.authenticateMetered(token.value);
    expect(principal.remembered).toBe(true);
    await expect(services.search.meter(principal, input)).rejects.toMatchObject({ reason: 'revoked' });
    expect((await store.requests.usage(userId)).count).toBe(0);
  });
});

/** How many times findHeld is called from now on. */
function countReads(tokens: { findHeld(digest: string): Promise<unknown> }): () => number {
  let reads = 0;
  const find = tokens.findHeld.bind(tokens);
  tokens.findHeld = (digest: string) => {
    reads++;
    return find(digest);
  };
  return () => reads;
}
