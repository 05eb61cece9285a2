// The credential rules, in one module that the domain, the stores and the HTTP edge import: what
// an account's e-mail and password must be, how long tokens live and are kept, and when a token
// still speaks for its account (password versions, the absolute session lifetime; the store that
// checks a remembered token at commit uses it too: src/stores/sqlite/records.ts).
//
// Every change of an account's password (a reset included) bumps its passwordVersion, in the
// same step as it sets the new hash. A token records the version of the password its holder
// proved: a session holds only while that is the account's version, so no session issued
// against the old password survives the change — not even one whose login read the old hash
// just before the change and was issued just after (the login then sees the version moved and
// is refused; a store that cannot check both in one transaction is caught at the token's first
// use). API keys are what programs run on: they hold across password changes, unless the change
// asked for keys to go, which moves keysFromVersion past every key issued until then.
import { InvalidInputError } from '../shared/errors.ts';
import type { CredentialState, TokenKind } from './accounts.ports.ts';

/** Whether a token issued against `passwordVersion` still speaks for an account in `holder`'s state (revocation and expiry aside). */
export function tokenHolds(
  token: { readonly kind: TokenKind; readonly passwordVersion: number },
  holder: CredentialState,
): boolean {
  return token.kind === 'session'
    ? token.passwordVersion === holder.passwordVersion
    : token.passwordVersion >= holder.keysFromVersion;
}

/**
 * When a session that began with the password given at `authenticatedAt` ends, whatever
 * rotation does (OWASP ASVS V3.3: an absolute lifetime). A session token's expiry is never later.
 */
export function sessionEnd(authenticatedAt: Date, maxLifetimeSeconds: number): Date {
  return new Date(authenticatedAt.getTime() + maxLifetimeSeconds * 1000);
}

/** The default absolute session lifetime: 12 hours, ASVS's level-2 bound for a session actively used. */
export const DEFAULT_SESSION_MAX_SECONDS = 12 * 3600;

/**
 * Live session tokens a user can hold. Each login issues one; beyond this the oldest sessions are
 * revoked, so a login loop cannot grow a user's token list (and GET /v1/tokens) without bound.
 * API keys have their own cap (keys.service.ts) and are never revoked by a login.
 */
export const MAX_LIVE_TOKENS = 100;

/**
 * "Last used" is recorded at most once per token per this long: a busy key costs one write a
 * minute, not one per request.
 */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** How long a revoked or expired token is kept before it is purged (a store may purge on its own after this long). */
export const DEAD_TOKEN_RETENTION_MS = 24 * 3600 * 1000;

export const MIN_PASSWORD_LENGTH = 8;
/** The contract's Credentials.password maxLength: a longer password could never log in. */
export const MAX_PASSWORD_LENGTH = 1024;
/** The contract's Credentials.email maxLength. */
export const MAX_EMAIL_LENGTH = 254;
/**
 * The contract's EmailAddress pattern, verbatim (test/api/operations.test.ts compares them): the
 * operator's CLI then creates no account whose e-mail the login operation, the clients or the
 * dashboard would refuse. Applied to the lower-cased address.
 */
export const EMAIL_PATTERN =
  /^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?\.)+[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$/;

/** True for an e-mail (already normalised) that the API accepts, the login operation included. */
export function acceptsEmail(normalized: string): boolean {
  return EMAIL_PATTERN.test(normalized) && normalized.length <= MAX_EMAIL_LENGTH;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The address folded, or InvalidInputError when the API would not accept it. */
export function checkEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (!acceptsEmail(normalized)) {
    throw new InvalidInputError(
      `"${email}" is not an e-mail address the API accepts (ASCII, at most ${MAX_EMAIL_LENGTH} characters).`,
    );
  }
  return normalized;
}

/** Counted in characters (code points), as the contract's minLength and maxLength count them. */
export function checkPassword(password: string): void {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH) {
    throw new InvalidInputError(`The password must have ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`);
  }
}
