// AuthService on the fakes: accounts, login, tokens and their life, one user's tokens apart from another's.
import { describe, expect, test } from 'vitest';
import { MAX_LIVE_TOKENS } from '../../src/domain/auth.service.ts';
import * as errors from '../../src/domain/errors.ts';
import { fakeServices } from '../support/fakes/services.ts';

describe('login', () => {
  test('when the password is right, then a token authenticates its user until it expires', async () => {
    const { services, clock } = fakeServices({ tokenTtlSeconds: 60 });
    const { userId } = await services.auth.createUser('Ada@Example.com', 'correct-horse-1');
    const token = await services.auth.login('ada@example.com', 'correct-horse-1');
    expect(token.value).toMatch(/^ssk_[A-Za-z0-9_-]{43}$/);
    expect(token.expiresIn).toBe(60);
    expect(await services.auth.authenticate(token.value)).toEqual({ userId, tokenId: token.tokenId, kind: 'session' });
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
    await store.users.setPasswordHash(userId, 'old0$correct-horse-1');
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

  test('when the password is changed, then every other token is revoked; a wrong current password is errors.WrongPasswordError', async () => {
    const { services, signedIn } = fakeServices();
    const { token, principal } = await signedIn();
    const other = await services.auth.login('ada@example.com', 'correct-horse-1');
    await expect(services.auth.changePassword(principal, 'wrong-horse-1', 'new-horse-12')).rejects.toBeInstanceOf(
      errors.WrongPasswordError,
    );
    await services.auth.changePassword(principal, 'correct-horse-1', 'new-horse-12');
    await expect(services.auth.authenticate(other.value)).rejects.toMatchObject({ reason: 'revoked' });
    expect(await services.auth.authenticate(token.value)).toEqual(principal);
    await expect(services.auth.login('ada@example.com', 'correct-horse-1')).rejects.toBeInstanceOf(
      errors.InvalidCredentialsError,
    );
  });
});

describe('authenticateMetered (a metered request: the token as the store remembers it)', () => {
  const input = { query: 'harvard', offset: 0, limit: 25 };

  test('when the store remembers a live token used within the minute, then it is taken without a read, and the principal says so', async () => {
    const { services, store, clock } = fakeServices();
    const { userId } = await services.auth.createUser('ada@example.com', 'correct-horse-1');
    const token = await services.auth.login('ada@example.com', 'correct-horse-1');
    // Not remembered yet: read (and its use recorded), as authenticate does.
    expect(await services.auth.authenticateMetered(token.value)).toEqual({
      userId,
      tokenId: token.tokenId,
      kind: 'session',
    });
    const reads = countReads(store.tokens);
    expect(await services.auth.authenticateMetered(token.value)).toEqual({
      userId,
      tokenId: token.tokenId,
      kind: 'session',
      remembered: true,
    });
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
});

/** How many times findByDigest is called from now on. */
function countReads(tokens: { findByDigest(digest: string): Promise<unknown> }): () => number {
  let reads = 0;
  const find = tokens.findByDigest.bind(tokens);
  tokens.findByDigest = (digest: string) => {
    reads++;
    return find(digest);
  };
  return () => reads;
}
