// Accounts and tokens: log in, authenticate, rotate, list and revoke. No HTTP in here.
import { randomUUID } from 'node:crypto';
import type { AccountNotices } from './account-notices.ts';
import {
  checkEmail,
  checkPassword,
  DEAD_TOKEN_RETENTION_MS,
  LAST_USED_RESOLUTION_MS,
  MAX_LIVE_TOKENS,
  normalizeEmail,
  sessionEnd,
  tokenHolds,
} from './credentials.ts';
import {
  EmailTakenError,
  InvalidCredentialsError,
  NotASessionError,
  NotFoundError,
  OriginNotAllowedError,
  UnauthenticatedError,
  WrongPasswordError,
} from '../shared/errors.ts';
import type { Clock } from '../shared/clock.ts';
import type {
  IssuedToken,
  PasswordHasher,
  Principal,
  TokenRecord,
  TokenStore,
  User,
  UserStore,
} from './accounts.ports.ts';
import { deviceProof, provesDevice } from './device-proof.ts';
import { originAllowed } from './origins.ts';
import { looksLikeToken, mintToken, newTokenValue, tokenDigest } from './token.ts';

export interface AuthSettings {
  /** Lifetime of a token issued by login or rotation, in seconds. */
  readonly tokenTtlSeconds: number;
  /** The absolute session lifetime (seconds since the password was given): rotation never goes past it. */
  readonly sessionMaxSeconds: number;
}

export class AuthService {
  readonly #users: UserStore;
  readonly #tokens: TokenStore;
  readonly #hasher: PasswordHasher;
  readonly #clock: Clock;
  readonly #settings: AuthSettings;
  readonly #notices: AccountNotices | undefined;
  /** A real hash of nothing anyone knows: unknown e-mails are verified against it, so they cost
   * the same time as a wrong password. */
  #decoy: Promise<string> | undefined;

  constructor(deps: {
    users: UserStore;
    tokens: TokenStore;
    hasher: PasswordHasher;
    clock: Clock;
    settings: AuthSettings;
    /** Mails the owner about changes to the account (a password change); default: none. */
    notices?: AccountNotices;
  }) {
    this.#users = deps.users;
    this.#tokens = deps.tokens;
    this.#hasher = deps.hasher;
    this.#clock = deps.clock;
    this.#settings = deps.settings;
    this.#notices = deps.notices;
  }

  /** Operator command: creates an account. */
  async createUser(email: string, password: string): Promise<{ userId: string; email: string }> {
    const normalized = checkEmail(email);
    checkPassword(password);
    if (await this.#users.findByEmail(normalized)) throw new EmailTakenError(normalized);
    const userId = randomUUID();
    await this.#users.create({
      id: userId,
      email: normalized,
      passwordHash: await this.#hasher.hash(password),
      createdAt: this.#clock.now(),
      passwordVersion: 0,
      keysFromVersion: 0,
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
    // upgraded, so that every account costs the same to check as the decoy. Only over the hash
    // just checked: a password changed meanwhile is never overwritten with this one's.
    let passwordHash = user.passwordHash;
    if (this.#hasher.needsRehash(passwordHash)) {
      const upgraded = await this.#hasher.hash(password);
      if (await this.#users.rehash(user.id, passwordHash, upgraded)) passwordHash = upgraded;
    }
    // Housekeeping on a path that is already slow by design (argon2): drop long-dead tokens.
    const now = this.#clock.now();
    await this.#tokens.purgeDead(new Date(now.getTime() - DEAD_TOKEN_RETENTION_MS));
    const { record, issued } = this.#newSession(user.id, user.passwordVersion, now, now);
    // Issued against the password version that was checked: when the password changed while
    // argon2 ran, the store refuses it, as the login would have been refused a moment later.
    if ((await this.#tokens.insertSession(record, MAX_LIVE_TOKENS, now)) === null) throw new InvalidCredentialsError();
    return { ...issued, deviceProof: deviceProof(user.id, passwordHash, now) };
  }

  /**
   * Whether `proof` shows that the device presenting it logged in as the account of `email`
   * recently (device-proof.ts). False for an unknown e-mail, a changed password, or anything else.
   */
  async recognisesDevice(email: string, proof: string): Promise<boolean> {
    const user = await this.#users.findByEmail(normalizeEmail(email));
    return user !== null && provesDevice(proof, user.id, user.passwordHash, this.#clock.now());
  }

  /**
   * Sets a new password after checking the current one (WrongPasswordError otherwise). Every
   * other session of the user ends (a leaked token, another device, a login racing this one:
   * credentials.ts); the token that asked keeps working and counts as signed in now. API keys
   * keep working unless `revokeKeys`: programs run on them, and a password change is routine.
   * The owner is mailed, with the account's keys listed.
   */
  async changePassword(principal: Principal, current: string, next: string, revokeKeys = false): Promise<void> {
    const user = await this.confirmPassword(principal, current);
    checkPassword(next);
    const now = this.#clock.now();
    const keys = (await this.#tokens.listLive(user.id, now)).filter((t) => t.kind === 'key');
    await this.#users.setPassword({
      userId: user.id,
      passwordHash: await this.#hasher.hash(next),
      revokeKeys,
      keepTokenId: principal.tokenId,
      now,
    });
    await this.#notices?.passwordChanged(user.email, {
      how: 'change',
      at: now,
      keys,
      keysRevoked: revokeKeys,
      keptKeyId: principal.kind === 'key' ? principal.tokenId : null,
    });
  }

  /**
   * A new session for a user whose identity another step proved (a confirmed sign-up, an
   * accepted invitation: the person gave the password with the link): what a login issues,
   * without the password check.
   */
  async issueSession(user: Pick<User, 'id' | 'passwordVersion'>): Promise<IssuedToken> {
    const now = this.#clock.now();
    const { record, issued } = this.#newSession(user.id, user.passwordVersion, now, now);
    if ((await this.#tokens.insertSession(record, MAX_LIVE_TOKENS, now)) === null) {
      throw new UnauthenticatedError('revoked');
    }
    return issued;
  }

  /**
   * Checks that `password` is the caller's current one (WrongPasswordError otherwise): what an
   * action needs that would outlast a stolen session (an API key lives up to a year). The account.
   */
  async confirmPassword(principal: Principal, password: string): Promise<User> {
    const user = await this.#users.findById(principal.userId);
    if (!user) throw new UnauthenticatedError('unknown');
    if (!(await this.#hasher.verify(user.passwordHash, password))) throw new WrongPasswordError();
    return user;
  }

  /** Resolves a presented token value to its user, or throws UnauthenticatedError. */
  async authenticate(value: string | undefined): Promise<Principal> {
    if (value === undefined || value === '') throw new UnauthenticatedError('missing');
    if (!looksLikeToken(value)) throw new UnauthenticatedError('malformed');
    return this.#authenticate(tokenDigest(value));
  }

  /**
   * authenticate() for a request that is metered: a token the store remembers (live, not
   * expired, holding for its account as remembered, its use recorded within the minute) is
   * taken as it is, without reading the store, and the principal says so (`remembered`): the
   * request's record then commits only if the token still holds, so a token revoked (or a
   * password changed) through another process is refused by this one's next metered request as
   * by any other. Anything else is authenticate()'s: read, checked, touched. Reading the token
   * was the largest part of a search's event-loop time after the health route's
   * (docs/runs/performance.md, Run N).
   */
  async authenticateMetered(value: string | undefined): Promise<Principal> {
    if (value === undefined || value === '') throw new UnauthenticatedError('missing');
    if (!looksLikeToken(value)) throw new UnauthenticatedError('malformed');
    const digest = tokenDigest(value);
    const held = this.#tokens.remembered?.(digest);
    if (held) {
      const { token, holder } = held;
      const now = this.#clock.now().getTime();
      if (
        !token.revokedAt &&
        token.lastUsedAt &&
        token.expiresAt.getTime() > now &&
        token.lastUsedAt.getTime() >= now - LAST_USED_RESOLUTION_MS &&
        tokenHolds(token, holder)
      )
        return { ...principalOf(token), remembered: true };
    }
    return this.#authenticate(digest);
  }

  async #authenticate(digest: string): Promise<Principal> {
    const held = await this.#tokens.findHeld(digest);
    if (!held) throw new UnauthenticatedError('unknown');
    const { token, holder } = held;
    if (token.revokedAt) throw new UnauthenticatedError('revoked');
    const now = this.#clock.now();
    if (token.expiresAt.getTime() <= now.getTime()) throw new UnauthenticatedError('expired');
    // A session of a password that changed since (or a key the change voided) is as revoked.
    if (!tokenHolds(token, holder)) throw new UnauthenticatedError('revoked');
    const notBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
    if (!token.lastUsedAt || token.lastUsedAt < notBefore) await this.#tokens.touch(token.id, now, notBefore);
    return principalOf(token);
  }

  /**
   * The principal of a publishable key let in from the page `origin` (origins.ts: requestOrigin
   * of its Origin or Referer; undefined when it named none), carrying that origin for the record;
   * OriginNotAllowedError when the key does not list it. Any other principal is let in as it is:
   * sessions and secret keys are for programs, which name no page (CORS_ORIGINS is the
   * operator's, not the key's).
   */
  admitOrigin(principal: Principal, origin: string | undefined): Principal {
    const scope = principal.publishable;
    if (!scope) return principal;
    if (origin === undefined || !originAllowed(scope.origins, origin)) throw new OriginNotAllowedError(origin);
    return { ...principal, origin };
  }

  /**
   * Replaces the caller's session with a new one of the same session: the same password
   * version and time of sign-in, so that it expires at the absolute session lifetime at the
   * latest (a stolen session is not kept alive by rotating it). An API key is refused
   * (NotASessionError) and left alone: rotating it here would turn a year-long key into an
   * hour-long session and revoke the key under the program that uses it; keys have their own
   * rotation.
   */
  async rotate(principal: Principal): Promise<IssuedToken> {
    if (principal.kind !== 'session') throw new NotASessionError();
    const now = this.#clock.now();
    if (sessionEnd(principal.authenticatedAt, this.#settings.sessionMaxSeconds).getTime() <= now.getTime()) {
      throw new UnauthenticatedError('expired');
    }
    const { record, issued } = this.#newSession(
      principal.userId,
      principal.passwordVersion,
      principal.authenticatedAt,
      now,
    );
    if (!(await this.#tokens.rotate(principal.userId, principal.tokenId, record, now))) {
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

  /** A session token, issued `now`, of the session that began at `authenticatedAt`: its TTL, cut at the session's end. */
  #newSession(
    userId: string,
    passwordVersion: number,
    authenticatedAt: Date,
    now: Date,
  ): { record: TokenRecord; issued: IssuedToken } {
    const end = sessionEnd(authenticatedAt, this.#settings.sessionMaxSeconds);
    const lifetimeMs = Math.min(this.#settings.tokenTtlSeconds * 1000, end.getTime() - now.getTime());
    const { record, value } = mintToken(userId, 'session', null, now, lifetimeMs, { passwordVersion, authenticatedAt });
    const expiresIn = Math.max(1, Math.floor(lifetimeMs / 1000));
    return {
      record,
      issued: { userId, tokenId: record.id, value, expiresIn, expiresAt: record.expiresAt, sessionExpiresAt: end },
    };
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

function principalOf(token: TokenRecord): Principal {
  return {
    userId: token.userId,
    tokenId: token.id,
    kind: token.kind,
    ...(token.publishable ? { publishable: token.publishable } : {}),
    passwordVersion: token.passwordVersion,
    authenticatedAt: token.authenticatedAt,
  };
}
