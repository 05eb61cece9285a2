import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { TokenRecord, TokenStore } from '../../domain/ports.ts';
import { transaction } from './database.ts';
import { guarded } from './errors.ts';

interface TokenRow {
  id: string;
  user_id: string;
  digest: string;
  hint: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

const COLUMNS = 'id, user_id, digest, hint, created_at, expires_at, revoked_at';

export class SqliteTokenStore implements TokenStore {
  readonly #db: DatabaseSync;
  readonly #insert: StatementSync;
  readonly #byDigest: StatementSync;
  readonly #live: StatementSync;
  readonly #revoke: StatementSync;
  readonly #purge: StatementSync;
  readonly #trim: StatementSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#insert = db.prepare(`INSERT INTO tokens (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`);
    this.#byDigest = db.prepare(`SELECT ${COLUMNS} FROM tokens WHERE digest = ?`);
    this.#live = db.prepare(
      `SELECT ${COLUMNS} FROM tokens WHERE user_id = ? AND revoked_at IS NULL AND expires_at > ?
       ORDER BY created_at DESC, rowid DESC`,
    );
    this.#revoke = db.prepare(
      'UPDATE tokens SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL AND expires_at > ?',
    );
    this.#purge = db.prepare('DELETE FROM tokens WHERE expires_at < ? OR revoked_at < ?');
    this.#trim = db.prepare(
      `UPDATE tokens SET revoked_at = :now
       WHERE user_id = :user AND revoked_at IS NULL AND expires_at > :now AND id NOT IN (
         SELECT id FROM tokens WHERE user_id = :user AND revoked_at IS NULL AND expires_at > :now
         ORDER BY created_at DESC, rowid DESC LIMIT :keep)`,
    );
  }

  insert(token: TokenRecord): Promise<void> {
    return guarded(() => void this.#insertRow(token));
  }

  findByDigest(digest: string): Promise<TokenRecord | null> {
    return guarded(() => {
      const row = this.#byDigest.get(digest) as TokenRow | undefined;
      return row ? toToken(row) : null;
    });
  }

  listLive(userId: string, now: Date): Promise<TokenRecord[]> {
    return guarded(() => (this.#live.all(userId, now.toISOString()) as unknown as TokenRow[]).map(toToken));
  }

  revoke(userId: string, tokenId: string, now: Date): Promise<boolean> {
    return guarded(() => this.#revokeRow(userId, tokenId, now));
  }

  rotate(userId: string, oldId: string, next: TokenRecord, now: Date): Promise<boolean> {
    return guarded(() =>
      transaction(this.#db, () => {
        if (!this.#revokeRow(userId, oldId, now)) return false;
        this.#insertRow(next);
        return true;
      }),
    );
  }

  revokeAllButNewest(userId: string, keep: number, now: Date): Promise<number> {
    return guarded(() => Number(this.#trim.run({ user: userId, now: now.toISOString(), keep }).changes));
  }

  purgeDead(before: Date): Promise<number> {
    return guarded(() => {
      const at = before.toISOString();
      return Number(this.#purge.run(at, at).changes);
    });
  }

  #insertRow(t: TokenRecord): void {
    this.#insert.run(
      t.id,
      t.userId,
      t.digest,
      t.hint,
      t.createdAt.toISOString(),
      t.expiresAt.toISOString(),
      t.revokedAt?.toISOString() ?? null,
    );
  }

  #revokeRow(userId: string, tokenId: string, now: Date): boolean {
    const at = now.toISOString();
    return Number(this.#revoke.run(at, tokenId, userId, at).changes) === 1;
  }
}

function toToken(row: TokenRow): TokenRecord {
  return {
    id: row.id,
    userId: row.user_id,
    digest: row.digest,
    hint: row.hint,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    revokedAt: row.revoked_at ? new Date(row.revoked_at) : null,
  };
}
