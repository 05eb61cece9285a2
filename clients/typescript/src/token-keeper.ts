// Holds the client's one current token: logs in lazily, renews by rotation shortly before expiry
// (by logging in again once the session's absolute end caps the token), keeps the device proof
// of the last login, and lets every concurrent caller share a single in-flight login or renewal.
import type { Client } from '../../../generated/client/index.ts';
import { createToken, rotateToken } from '../../../generated/sdk.gen.ts';
import type { Token } from '../../../generated/types.gen.ts';
import { SchoolSearchApiError, unwrap } from './api-error.ts';

export interface ClientClock {
  now(): Date;
}

interface Session {
  readonly token: string;
  readonly tokenId: string | undefined;
  /** On the client's clock. Undefined for a token the caller handed in: its lifetime is unknown. */
  readonly expiresAtMs: number | undefined;
  readonly lifetimeMs: number | undefined;
  /** The token expires with its session (`expires_at` = `session_expires_at`): a rotation cannot renew it. */
  readonly lastOfSession: boolean;
}

export interface TokenKeeperOptions {
  readonly client: Client;
  readonly credentials: { email: string; password: string } | undefined;
  readonly token: string | undefined;
  readonly renewBeforeSeconds: number;
  readonly clock: ClientClock;
  /** The device proof of an earlier login to the account (e.g. persisted by the caller). */
  readonly deviceProof: string | undefined;
  /** Told each new device proof a login's answer carries. */
  readonly onDeviceProof: ((proof: string) => void) | undefined;
}

/** What the SDK tells an auth callback of the security scheme it is asking for. */
interface AuthScheme {
  scheme?: string;
  in?: string;
  name?: string;
}

/** Sends `token` as the bearer credential only: the SDK would also put it in the deprecated
 * `tokenID` query parameter, where it ends up in logs. */
export function bearer(token: string) {
  return (auth: AuthScheme) => (auth.scheme === 'bearer' ? token : undefined);
}

/** Sends a publishable key as the `key` query parameter only: no Authorization header, so a
 * page's GET is a simple CORS request and the browser sends no preflight. */
export function keyParameter(key: string) {
  return (auth: AuthScheme) => (auth.in === 'query' && auth.name === 'key' ? key : undefined);
}

export class TokenKeeper {
  readonly #options: TokenKeeperOptions;
  #credentials: { email: string; password: string } | undefined;
  #deviceProof: string | undefined;
  #session: Session | undefined;
  #pending: Promise<Session> | undefined;

  constructor(options: TokenKeeperOptions) {
    this.#options = options;
    this.#credentials = options.credentials;
    this.#deviceProof = options.deviceProof;
    if (options.token !== undefined) {
      this.#session = {
        token: options.token,
        tokenId: undefined,
        expiresAtMs: undefined,
        lifetimeMs: undefined,
        lastOfSession: false,
      };
    }
  }

  get canLogIn(): boolean {
    return this.#credentials !== undefined;
  }

  /** The password logins use, when the client has credentials. */
  get password(): string | undefined {
    return this.#credentials?.password;
  }

  /** The proof the last login's answer carried (or the one given at construction), sent with the next login. */
  get deviceProof(): string | undefined {
    return this.#deviceProof;
  }

  /** The account's password was changed through this client: later logins use the new one. */
  passwordChanged(password: string): void {
    if (this.#credentials) this.#credentials = { ...this.#credentials, password };
  }

  /** A token to send now: the cached one, or one from the login/renewal every caller shares. */
  async token(): Promise<string> {
    if (this.#pending) return (await this.#pending).token;
    const session = this.#session;
    if (session && !this.#dueForRenewal(session)) return session.token;
    this.#pending = this.#replace(session).finally(() => {
      this.#pending = undefined;
    });
    return (await this.#pending).token;
  }

  /** The server refused `token` (401): drop it, unless a concurrent caller already replaced it. */
  forget(token: string): void {
    if (this.#session?.token === token) this.#session = undefined;
  }

  forgetTokenId(tokenId: string): void {
    if (this.#session?.tokenId === tokenId) this.#session = undefined;
  }

  /** Hands over the current token (after any renewal in flight) and forgets it, for logout. */
  async release(): Promise<string | undefined> {
    if (this.#pending) await this.#pending.catch(() => undefined);
    const token = this.#session?.token;
    this.#session = undefined;
    return token;
  }

  #dueForRenewal(session: Session): boolean {
    if (session.expiresAtMs === undefined || session.lifetimeMs === undefined) return false;
    // Never more than half the lifetime early: with a short-lived token and a large margin the
    // client would otherwise rotate on every single call.
    const margin = Math.min(this.#options.renewBeforeSeconds * 1000, session.lifetimeMs / 2);
    return this.#now() >= session.expiresAtMs - margin;
  }

  async #replace(current: Session | undefined): Promise<Session> {
    if (current && this.#canRotate(current)) {
      // Undefined: the server refused the token, so nothing is left to fall back on.
      return (await this.#rotate(current)) ?? this.#logIn();
    }
    try {
      return await this.#logIn();
    } catch (error) {
      // Renewing the session's last token by login: as with a rotation, a failure other than
      // 401 does not fail the caller while that token still works; the next call tries again.
      const works = current?.expiresAtMs !== undefined && this.#now() < current.expiresAtMs;
      if (current && works && !(error instanceof SchoolSearchApiError && error.status === 401)) return current;
      throw error;
    }
  }

  /**
   * Rotation renews only a token that still works and ends before its session does: one that
   * expires with its session (`expires_at` = `session_expires_at`) would come back no later,
   * and after the session's end the server refuses the rotation (401). A token the caller
   * handed in is never rotated.
   */
  #canRotate(current: Session): boolean {
    return current.expiresAtMs !== undefined && this.#now() < current.expiresAtMs && !current.lastOfSession;
  }

  /** Undefined when the server no longer accepts the token, so a fresh login is the way on. */
  async #rotate(current: Session): Promise<Session | undefined> {
    const sentAt = this.#now();
    try {
      const token = unwrap(await rotateToken({ client: this.#options.client, auth: bearer(current.token) }));
      return this.#adopt(token, sentAt);
    } catch (error) {
      if (error instanceof SchoolSearchApiError && error.status === 401) return undefined;
      // A failed renewal must not fail the caller while the token still works; the next call
      // tries again.
      if (this.#now() < (current.expiresAtMs ?? 0)) return current;
      throw error;
    }
  }

  async #logIn(): Promise<Session> {
    const credentials = this.#credentials;
    if (!credentials) {
      throw new Error('SchoolSearchClient has no token left and no e-mail/password to get one (logged out?).');
    }
    const sentAt = this.#now();
    // Without a cookie jar, the device proof travels in the body: an empty one asks for a first
    // proof, the last answer's keeps this client out of the ceiling on failed logins that
    // strangers guessing at the account run up.
    const body = { ...credentials, device_proof: this.#deviceProof ?? '' };
    const token = unwrap(await createToken({ client: this.#options.client, body }));
    const session = this.#adopt(token, sentAt);
    if (token.device_proof !== undefined && token.device_proof !== this.#deviceProof) {
      this.#deviceProof = token.device_proof;
      // After the token is kept: a listener that throws fails this call, not the session.
      this.#options.onDeviceProof?.(token.device_proof);
    }
    return session;
  }

  #adopt(token: Token, sentAt: number): Session {
    // Expiry counts from when the request left, on the client's own clock: the server's
    // `expires_at` is on the server's clock, and the two need not agree. Whether the token is
    // the session's last compares two times of the server's clock, which is sound.
    const lifetimeMs = token.expires_in * 1000;
    const session: Session = {
      token: token.token,
      tokenId: token.token_id,
      expiresAtMs: sentAt + lifetimeMs,
      lifetimeMs,
      lastOfSession: Date.parse(token.expires_at) >= Date.parse(token.session_expires_at),
    };
    this.#session = session;
    return session;
  }

  #now(): number {
    return this.#options.clock.now().getTime();
  }
}
