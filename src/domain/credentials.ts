// When a token still speaks for its account: the rules of password versions and of the absolute
// session lifetime, written once for the domain and for the store that checks a remembered token
// at commit (src/stores/sqlite/records.ts).
//
// Every change of an account's password (a reset included) bumps its passwordVersion, in the
// same step as it sets the new hash. A token records the version of the password its holder
// proved: a session holds only while that is the account's version, so no session issued
// against the old password survives the change — not even one whose login read the old hash
// just before the change and was issued just after (the login then sees the version moved and
// is refused; a store that cannot check both in one transaction is caught at the token's first
// use). API keys are what programs run on: they hold across password changes, unless the change
// asked for keys to go, which moves keysFromVersion past every key issued until then.
import type { CredentialState, TokenKind } from './ports.ts';

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
