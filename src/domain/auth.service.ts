// Accounts and tokens: log in, authenticate, rotate, list and revoke. No HTTP in here.
import { randomUUID } from 'node:crypto';
import {
  EmailTakenError,
  InvalidCredentialsError,
  InvalidInputError,
  NotASessionError,
  NotFoundError,
  UnauthenticatedError,
  WrongPasswordError,
} from './errors.ts';
import type { Clock, PasswordHasher, TokenKind, TokenRecord, TokenStore, UserStore } from './ports.ts';
import { deviceProof, provesDevice } from './device.proof.ts';
import { looksLikeToken, mintToken, newTokenValue, tokenDigest } from './token.ts';

export interface Principal {
  readonly userId: string;
  readonly tokenId: string;
  /** What authenticated the request: a login's session or a named API key. */
  readonly kind: TokenKind;
  /**
   * Set when the token was taken as the store remembered it (authenticateMetered), not read
   * now: whatever the request commits must be committed only if the token still holds then
   * (SearchService passes it to RequestLog.append).
   */
  readonly remembered?: true;
}

export interface IssuedToken {
  readonly userId: string;
  readonly tokenId: string;
  readonly value: string;
  readonly expiresIn: number;
  readonly expiresAt: Date;
  /** A login's only: the device's proof of it (device.proof.ts), for its later logins. */
  readonly deviceProof?: string;
}

export interface AuthSettings {
  /** Lifetime of a token issued by login or rotation, in seconds. */
  readonly tokenTtlSeconds: number;
}

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

export class AuthService {
  readonly #users: UserStore;
  readonly #tokens: TokenStore;
  readonly #hasher: PasswordHasher;
  readonly #clock: Clock;
  readonly #settings: AuthSettings;
  /** A real hash of nothing anyone knows: unknown e-mails are verified against it, so they cost
   * the same time as a wrong password. */
  #decoy: Promise<string> | undefined;

  constructor(deps: {
    users: UserStore;
    tokens: TokenStore;
    hasher: PasswordHasher;
    clock: Clock;
    settings: AuthSettings;
  }) {
    this.#users = deps.users;
    this.#tokens = deps.tokens;
    this.#hasher = deps.hasher;
    this.#clock = deps.clock;
    this.#settings = deps.settings;
  }

  /** Operator command: creates an account. */
  async createUser(email: string, password: string): Promise<{ userId: string; email: string }> {
    const normalized = normalizeEmail(email);
    if (!EMAIL_PATTERN.test(normalized) || normalized.length > MAX_EMAIL_LENGTH) {
      throw new InvalidInputError(
        `"${email}" is not an e-mail address the API accepts (ASCII, at most ${MAX_EMAIL_LENGTH} characters).`,
      );
    }
    if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
      throw new InvalidInputError(
        `The password must have ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`,
      );
    }
    if (await this.#users.findByEmail(normalized)) throw new EmailTakenError(normalized);
    const userId = randomUUID();
    await this.#users.create({
      id: userId,
      email: normalized,
      passwordHash: await this.#hasher.hash(password),
      createdAt: this.#clock.now(),
    });
    return { userId, email: normalized };
  }

  async login(email: string, password: string): Promise<IssuedToken> {
    const user = await this.#users.findByEmail(normalizeEmail(email));
    if (!user) {
      await this.#hasher.verify(await this.#decoyHash(), password);
      throw new InvalidCredentialsError();
    }
    if (!(await this.#hasher.verify(user.passwordHash, password))) throw new InvalidCredentialsError();
    // A hash made with other cost settings (an older default, a CLI run with other variables) is
    // upgraded, so that every account costs the same to check as the decoy.
    let passwordHash = user.passwordHash;
    if (this.#hasher.needsRehash(passwordHash)) {
      passwordHash = await this.#hasher.hash(password);
      await this.#users.setPasswordHash(user.id, passwordHash);
    }
    // Housekeeping on a path that is already slow by design (argon2): drop long-dead tokens.
    await this.#tokens.purgeDead(new Date(this.#clock.now().getTime() - DEAD_TOKEN_RETENTION_MS));
    const { record, issued } = this.#newToken(user.id);
    await this.#tokens.insertSession(record, MAX_LIVE_TOKENS, this.#clock.now());
    return { ...issued, deviceProof: deviceProof(user.id, passwordHash, this.#clock.now()) };
  }

  /**
   * Whether `proof` shows that the device presenting it logged in as the account of `email`
   * recently (device.proof.ts). False for an unknown e-mail, a changed password, or anything else.
   */
  async recognisesDevice(email: string, proof: string): Promise<boolean> {
    const user = await this.#users.findByEmail(normalizeEmail(email));
    return user !== null && provesDevice(proof, user.id, user.passwordHash, this.#clock.now());
  }

  /**
   * Sets a new password after checking the current one (WrongPasswordError otherwise), then
   * revokes every other live token of the user: a leaked token or another device is signed
   * out; the one that asked keeps working.
   */
  async changePassword(principal: Principal, current: string, next: string): Promise<void> {
    const user = await this.#users.findById(principal.userId);
    if (!user) throw new UnauthenticatedError('unknown');
    if (!(await this.#hasher.verify(user.passwordHash, current))) throw new WrongPasswordError();
    if (next.length < MIN_PASSWORD_LENGTH || next.length > MAX_PASSWORD_LENGTH) {
      throw new InvalidInputError(
        `The password must have ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`,
      );
    }
    await this.#users.setPasswordHash(user.id, await this.#hasher.hash(next));
    await this.#tokens.revokeAllExcept(user.id, principal.tokenId, this.#clock.now());
  }

  /**
   * A new session for a user whose identity another step proved (a confirmed sign-up, an
   * accepted invitation): what a login issues, without the password check.
   */
  async issueSession(userId: string): Promise<IssuedToken> {
    const { record, issued } = this.#newToken(userId);
    await this.#tokens.insertSession(record, MAX_LIVE_TOKENS, this.#clock.now());
    return issued;
  }

  /**
   * Checks that `password` is the caller's current one (WrongPasswordError otherwise): what an
   * action needs that would outlast a stolen session (an API key lives up to a year).
   */
  async confirmPassword(principal: Principal, password: string): Promise<void> {
    const user = await this.#users.findById(principal.userId);
    if (!user) throw new UnauthenticatedError('unknown');
    if (!(await this.#hasher.verify(user.passwordHash, password))) throw new WrongPasswordError();
  }

  /** Resolves a presented token value to its user, or throws UnauthenticatedError. */
  async authenticate(value: string | undefined): Promise<Principal> {
    if (value === undefined || value === '') throw new UnauthenticatedError('missing');
    if (!looksLikeToken(value)) throw new UnauthenticatedError('malformed');
    return this.#authenticate(tokenDigest(value));
  }

  /**
   * authenticate() for a request that is metered: a token the store remembers (live, not
   * expired, its use recorded within the minute) is taken as it is, without reading the store,
   * and the principal says so (`remembered`): the request's record then commits only if the
   * token still holds, so a token revoked through another process is refused by this one's next
   * metered request as by any other. Anything else is authenticate()'s: read, checked, touched.
   * Reading the token was the largest part of a search's event-loop time after the health
   * route's (docs/performance.md, Run N).
   */
  async authenticateMetered(value: string | undefined): Promise<Principal> {
    if (value === undefined || value === '') throw new UnauthenticatedError('missing');
    if (!looksLikeToken(value)) throw new UnauthenticatedError('malformed');
    const digest = tokenDigest(value);
    const token = this.#tokens.remembered?.(digest);
    if (token && !token.revokedAt && token.lastUsedAt) {
      const now = this.#clock.now().getTime();
      if (token.expiresAt.getTime() > now && token.lastUsedAt.getTime() >= now - LAST_USED_RESOLUTION_MS)
        return { userId: token.userId, tokenId: token.id, kind: token.kind, remembered: true };
    }
    return this.#authenticate(digest);
  }

  async #authenticate(digest: string): Promise<Principal> {
    const token = await this.#tokens.findByDigest(digest);
    if (!token) throw new UnauthenticatedError('unknown');
    if (token.revokedAt) throw new UnauthenticatedError('revoked');
    const now = this.#clock.now();
    if (token.expiresAt.getTime() <= now.getTime()) throw new UnauthenticatedError('expired');
    const notBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
    if (!token.lastUsedAt || token.lastUsedAt < notBefore) await this.#tokens.touch(token.id, now, notBefore);
    return { userId: token.userId, tokenId: token.id, kind: token.kind };
  }

  /**
   * Replaces the caller's session with a new one. An API key is refused (NotASessionError) and
   * left alone: rotating it here would turn a year-long key into an hour-long session and
   * revoke the key under the program that uses it; keys have their own rotation.
   */
  async rotate(principal: Principal): Promise<IssuedToken> {
    if (principal.kind !== 'session') throw new NotASessionError();
    const { record, issued } = this.#newToken(principal.userId);
    if (!(await this.#tokens.rotate(principal.userId, principal.tokenId, record, this.#clock.now()))) {
      // Revoked by a concurrent request between authentication and now.
      throw new UnauthenticatedError('revoked');
    }
    return issued;
  }

  async revokeCurrent(principal: Principal): Promise<void> {
    if (!(await this.#tokens.revoke(principal.userId, principal.tokenId, this.#clock.now()))) {
      throw new UnauthenticatedError('revoked');
    }
  }

  async revokeById(principal: Principal, tokenId: string): Promise<void> {
    // The store only revokes a token of this user: another user's id is "not found", never "forbidden".
    if (!(await this.#tokens.revoke(principal.userId, tokenId, this.#clock.now()))) {
      throw new NotFoundError('There is no such token.');
    }
  }

  async listTokens(principal: Principal): Promise<Array<TokenRecord & { current: boolean }>> {
    const tokens = await this.#tokens.listLive(principal.userId, this.#clock.now());
    return tokens.map((t) => ({ ...t, current: t.id === principal.tokenId }));
  }

  #newToken(userId: string): { record: TokenRecord; issued: IssuedToken } {
    const ttl = this.#settings.tokenTtlSeconds;
    const { record, value } = mintToken(userId, 'session', null, this.#clock.now(), ttl * 1000);
    return { record, issued: { userId, tokenId: record.id, value, expiresIn: ttl, expiresAt: record.expiresAt } };
  }

  /** Computes the decoy hash now, so the first unknown e-mail is not slower than the rest. */
  async warmUp(): Promise<void> {
    await this.#decoyHash();
  }

  #decoyHash(): Promise<string> {
    this.#decoy ??= this.#hasher.hash(newTokenValue());
    return this.#decoy;
  }
}
