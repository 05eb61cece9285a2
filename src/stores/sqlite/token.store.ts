import type {
  HeldToken,
  KeyChange,
  PublishableScope,
  TokenKind,
  TokenRecord,
  TokenStore,
} from '../../domain/accounts/accounts.ports.ts';
import type { Connection } from './connection.ts';
import { transaction } from './database.ts';

interface TokenRow {
  id: string;
  user_id: string;
  digest: string;
  hint: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  kind: TokenKind;
  name: string | null;
  last_used_at: string | null;
  password_version: number;
  /** NULL on tokens issued before it was kept: their creation stands for it. */
  authenticated_at: string | null;
  /** A publishable key's scope as JSON; NULL on every other token. */
  publishable: string | null;
}

interface HeldRow extends TokenRow {
  holder_password_version: number;
  holder_keys_from_version: number;
}

const COLUMNS =
  'id, user_id, digest, hint, created_at, expires_at, revoked_at, kind, name, last_used_at, password_version, authenticated_at, publishable';
const INSERT = `INSERT INTO tokens (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const BY_DIGEST = `SELECT ${COLUMNS} FROM tokens WHERE digest = ?`;
// The token and its account's credential state in one read (credentials.ts).
const HELD = `SELECT ${COLUMNS.split(', ')
  .map((c) => `t.${c}`)
  .join(', ')}, u.password_version AS holder_password_version, u.keys_from_version AS holder_keys_from_version
  FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.digest = ?`;
const VERSION = 'SELECT password_version FROM users WHERE id = ?';
const LIVE = `SELECT ${COLUMNS} FROM tokens WHERE user_id = ? AND revoked_at IS NULL AND expires_at > ?
  ORDER BY created_at DESC, rowid DESC`;
const REVOKE =
  'UPDATE tokens SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL AND expires_at > ?';
const REVOKE_OTHERS =
  'UPDATE tokens SET revoked_at = ? WHERE user_id = ? AND id <> ? AND revoked_at IS NULL AND expires_at > ?';
const PURGE = 'DELETE FROM tokens WHERE expires_at < ? OR revoked_at < ?';
const TRIM = `UPDATE tokens SET revoked_at = :now
  WHERE user_id = :user AND kind = 'session' AND revoked_at IS NULL AND expires_at > :now AND id NOT IN (
    SELECT id FROM tokens WHERE user_id = :user AND kind = 'session' AND revoked_at IS NULL AND expires_at > :now
    ORDER BY created_at DESC, rowid DESC LIMIT :keep)`;
// COALESCE: what the change does not give stays; a scope is only ever set on a publishable key.
const UPDATE_KEY = `UPDATE tokens SET name = COALESCE(:name, name),
    publishable = CASE WHEN publishable IS NULL THEN NULL ELSE COALESCE(:publishable, publishable) END
  WHERE id = :id AND user_id = :user AND kind = 'key' AND revoked_at IS NULL AND expires_at > :now
  RETURNING ${COLUMNS}`;
const TOUCH = 'UPDATE tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)';

/** Tokens remembered at most; past it the one found longest ago goes (a bound on memory). */
const REMEMBERED = 4096;

export class SqliteTokenStore implements TokenStore {
  readonly #connection: Connection;
  /**
   * Each token found (findHeld), by digest, as it was read with its account's credential state
   * (remembered()). Any change this store makes to a token, and any password change the user
   * store makes (SqliteStore wires it), forgets them all; one made through another process or
   * connection is caught where a remembered token is used: the request log's commit refuses a
   * record whose token no longer holds (records.ts) and has the token forgotten.
   */
  readonly #found = new Map<string, HeldToken>();
  /** The digest of each remembered token, by its id (touch, forget). */
  readonly #digests = new Map<string, string>();

  constructor(connection: Connection) {
    this.#connection = connection;
  }

  insert(token: TokenRecord): Promise<void> {
    return this.#connection.write(() => void this.#insertRow(token));
  }

  findByDigest(digest: string): Promise<TokenRecord | null> {
    const c = this.#connection;
    return c.read(() => {
      const row = c.statement(BY_DIGEST).get(digest) as TokenRow | undefined;
      return row ? toToken(row) : null;
    });
  }

  findHeld(digest: string): Promise<HeldToken | null> {
    const c = this.#connection;
    return c.read(() => {
      const row = c.statement(HELD).get(digest) as HeldRow | undefined;
      if (!row) return null;
      const held = {
        token: toToken(row),
        holder: { passwordVersion: row.holder_password_version, keysFromVersion: row.holder_keys_from_version },
      };
      this.#remember(held);
      return held;
    });
  }

  remembered(digest: string): HeldToken | undefined {
    return this.#found.get(digest);
  }

  /** Forgets every token remembered (a password changed through this process). */
  forgetAll(): void {
    this.#forgetAll();
  }

  /** Forgets the token (the request log found it no longer holds). */
  forget(tokenId: string): void {
    const digest = this.#digests.get(tokenId);
    if (digest === undefined) return;
    this.#digests.delete(tokenId);
    this.#found.delete(digest);
  }

  listLive(userId: string, now: Date): Promise<TokenRecord[]> {
    const c = this.#connection;
    return c.read(() => (c.statement(LIVE).all(userId, now.toISOString()) as unknown as TokenRow[]).map(toToken));
  }

  revoke(userId: string, tokenId: string, now: Date): Promise<boolean> {
    this.#forgetAll();
    return this.#connection.write(() => this.#revokeRow(userId, tokenId, now));
  }

  updateKey(userId: string, tokenId: string, change: KeyChange, now: Date): Promise<TokenRecord | null> {
    this.#forgetAll();
    const c = this.#connection;
    return c.write(() => {
      const row = c.statement(UPDATE_KEY).get({
        id: tokenId,
        user: userId,
        now: now.toISOString(),
        name: change.name ?? null,
        publishable: change.publishable ? JSON.stringify(change.publishable) : null,
      }) as TokenRow | undefined;
      return row ? toToken(row) : null;
    });
  }

  rotate(userId: string, oldId: string, next: TokenRecord, now: Date): Promise<boolean> {
    this.#forgetAll();
    const c = this.#connection;
    return c.write(() =>
      transaction(c.db, () => {
        if (!this.#revokeRow(userId, oldId, now)) return false;
        this.#insertRow(next);
        return true;
      }),
    );
  }

  revokeAllExcept(userId: string, keepId: string, now: Date): Promise<number> {
    this.#forgetAll();
    const c = this.#connection;
    const at = now.toISOString();
    return c.write(() => Number(c.statement(REVOKE_OTHERS).run(at, userId, keepId, at).changes));
  }

  revokeAllButNewest(userId: string, keep: number, now: Date): Promise<number> {
    this.#forgetAll();
    const c = this.#connection;
    return c.write(() => Number(c.statement(TRIM).run({ user: userId, now: now.toISOString(), keep }).changes));
  }

  insertSession(token: TokenRecord, keep: number, now: Date): Promise<number | null> {
    this.#forgetAll();
    const c = this.#connection;
    // One transaction: one fsync on the event loop per login instead of two (SQLite commits
    // synchronously, and a write that changes nothing costs none). The account's password version
    // is read in it: a password changed since the login read it refuses the session.
    return c.write(() =>
      transaction(c.db, () => {
        const account = c.statement(VERSION).get(token.userId) as { password_version: number } | undefined;
        if (account?.password_version !== token.passwordVersion) return null;
        this.#insertRow(token);
        return Number(c.statement(TRIM).run({ user: token.userId, now: now.toISOString(), keep }).changes);
      }),
    );
  }

  touch(tokenId: string, now: Date, notBefore: Date): Promise<void> {
    const c = this.#connection;
    return c.write(() => {
      c.statement(TOUCH).run(now.toISOString(), tokenId, notBefore.toISOString());
      const digest = this.#digests.get(tokenId);
      const held = digest === undefined ? undefined : this.#found.get(digest);
      if (held && (!held.token.lastUsedAt || held.token.lastUsedAt < notBefore))
        this.#found.set(digest!, { ...held, token: { ...held.token, lastUsedAt: now } });
    });
  }

  purgeDead(before: Date): Promise<number> {
    this.#forgetAll();
    const c = this.#connection;
    return c.write(() => {
      const at = before.toISOString();
      return Number(c.statement(PURGE).run(at, at).changes);
    });
  }

  #remember(held: HeldToken): void {
    const { token } = held;
    if (!this.#found.has(token.digest) && this.#found.size >= REMEMBERED) {
      const [oldest] = this.#found.values();
      this.#found.delete(oldest!.token.digest);
      this.#digests.delete(oldest!.token.id);
    }
    this.#found.set(token.digest, held);
    this.#digests.set(token.id, token.digest);
  }

  /** Before any change this store makes to its tokens, whether or not it commits: they are read again. */
  #forgetAll(): void {
    this.#found.clear();
    this.#digests.clear();
  }

  #insertRow(t: TokenRecord): void {
    this.#connection
      .statement(INSERT)
      .run(
        t.id,
        t.userId,
        t.digest,
        t.hint,
        t.createdAt.toISOString(),
        t.expiresAt.toISOString(),
        t.revokedAt?.toISOString() ?? null,
        t.kind,
        t.name,
        t.lastUsedAt?.toISOString() ?? null,
        t.passwordVersion,
        t.authenticatedAt.toISOString(),
        t.publishable ? JSON.stringify(t.publishable) : null,
      );
  }

  #revokeRow(userId: string, tokenId: string, now: Date): boolean {
    const at = now.toISOString();
    return Number(this.#connection.statement(REVOKE).run(at, tokenId, userId, at).changes) === 1;
  }
}

function toToken(row: TokenRow): TokenRecord {
  return {
    id: row.id,
    userId: row.user_id,
    kind: row.kind,
    name: row.name,
    digest: row.digest,
    hint: row.hint,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    revokedAt: row.revoked_at ? new Date(row.revoked_at) : null,
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at) : null,
    passwordVersion: row.password_version,
    authenticatedAt: new Date(row.authenticated_at ?? row.created_at),
    ...(row.publishable !== null && { publishable: JSON.parse(row.publishable) as PublishableScope }),
  };
}
