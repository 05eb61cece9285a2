// Holds the client's one current token: logs in lazily, renews by rotation shortly before expiry,
// and lets every concurrent caller share a single in-flight login or renewal.
import type { Client } from '../../generated/client/index.ts';
import { createToken, rotateToken } from '../../generated/sdk.gen.ts';
import type { Token } from '../../generated/types.gen.ts';
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
}

export interface TokenKeeperOptions {
  readonly client: Client;
  readonly credentials: { email: string; password: string } | undefined;
  readonly token: string | undefined;
  readonly renewBeforeSeconds: number;
  readonly clock: ClientClock;
}

/** Sends `token` as the bearer credential only: the SDK would also put it in the deprecated
 * `tokenID` query parameter, where it ends up in logs. */
export function bearer(token: string) {
  return (auth: { scheme?: string }) => (auth.scheme === 'bearer' ? token : undefined);
}

export class TokenKeeper {
  readonly #options: TokenKeeperOptions;
  #session: Session | undefined;
  #pending: Promise<Session> | undefined;

  constructor(options: TokenKeeperOptions) {
    this.#options = options;
    if (options.token !== undefined) {
      this.#session = { token: options.token, tokenId: undefined, expiresAtMs: undefined, lifetimeMs: undefined };
    }
  }

  get canLogIn(): boolean {
    return this.#options.credentials !== undefined;
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
    if (current && current.expiresAtMs !== undefined && this.#now() < current.expiresAtMs) {
      const rotated = await this.#rotate(current);
      if (rotated) return rotated;
    }
    return this.#logIn();
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
    const credentials = this.#options.credentials;
    if (!credentials) {
      throw new Error('SchoolSearchClient has no token left and no e-mail/password to get one (logged out?).');
    }
    const sentAt = this.#now();
    const token = unwrap(await createToken({ client: this.#options.client, body: credentials }));
    return this.#adopt(token, sentAt);
  }

  #adopt(token: Token, sentAt: number): Session {
    // Expiry counts from when the request left, on the client's own clock: the server's
    // `expires_at` is on the server's clock, and the two need not agree.
    const lifetimeMs = token.expires_in * 1000;
    const session = { token: token.token, tokenId: token.token_id, expiresAtMs: sentAt + lifetimeMs, lifetimeMs };
    this.#session = session;
    return session;
  }

  #now(): number {
    return this.#options.clock.now().getTime();
  }
}
