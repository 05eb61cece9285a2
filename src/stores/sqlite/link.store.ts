import type { LinkPurpose, LinkRecord, LinkStore } from '../../domain/accounts/accounts.ports.ts';
import type { Connection } from './connection.ts';

interface LinkRow {
  id: string;
  purpose: LinkPurpose;
  email: string;
  user_id: string | null;
  password_hash: string | null;
  digest: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  mailed: number;
}

const COLUMNS = 'id, purpose, email, user_id, password_hash, digest, created_at, expires_at, used_at, mailed';
const INSERT = `INSERT INTO links (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const LIVE = `SELECT ${COLUMNS} FROM links WHERE digest = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?`;
// One statement: of two requests with the same link, the second finds it used.
const USE = `UPDATE links SET used_at = :now WHERE digest = :digest AND purpose = :purpose AND used_at IS NULL
  AND expires_at > :now RETURNING ${COLUMNS}`;
const USE_ALL =
  'UPDATE links SET used_at = :now WHERE email = :email AND purpose = :purpose AND used_at IS NULL AND expires_at > :now';
const PURGE = 'DELETE FROM links WHERE expires_at < :before OR used_at < :before';
// Newest first by creation; rowid breaks a tie of one millisecond by insertion order.
const PENDING = `SELECT ${COLUMNS} FROM links WHERE email = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?
  ORDER BY created_at DESC, rowid DESC LIMIT 1`;
const NOTE_MAILED = 'UPDATE links SET mailed = mailed + 1 WHERE id = ? AND mailed < ?';
const RELEASE = 'UPDATE links SET used_at = NULL WHERE id = ? AND used_at = ?';

export class SqliteLinkStore implements LinkStore {
  readonly #connection: Connection;

  constructor(connection: Connection) {
    this.#connection = connection;
  }

  insert(l: LinkRecord): Promise<void> {
    const c = this.#connection;
    return c.write(
      () =>
        void c
          .statement(INSERT)
          .run(
            l.id,
            l.purpose,
            l.email,
            l.userId,
            l.passwordHash,
            l.digest,
            l.createdAt.toISOString(),
            l.expiresAt.toISOString(),
            l.usedAt?.toISOString() ?? null,
            l.mailed,
          ),
    );
  }

  findPending(email: string, purpose: LinkPurpose, expiresAfter: Date): Promise<LinkRecord | null> {
    const c = this.#connection;
    return c.read(() =>
      toLink(c.statement(PENDING).get(email, purpose, expiresAfter.toISOString()) as LinkRow | undefined),
    );
  }

  noteMailed(id: string, max: number): Promise<boolean> {
    const c = this.#connection;
    return c.write(() => Number(c.statement(NOTE_MAILED).run(id, max).changes) === 1);
  }

  release(id: string, usedAt: Date): Promise<boolean> {
    const c = this.#connection;
    return c.write(() => Number(c.statement(RELEASE).run(id, usedAt.toISOString()).changes) === 1);
  }

  findLive(digest: string, purpose: LinkPurpose, now: Date): Promise<LinkRecord | null> {
    const c = this.#connection;
    return c.read(() => toLink(c.statement(LIVE).get(digest, purpose, now.toISOString()) as LinkRow | undefined));
  }

  use(digest: string, purpose: LinkPurpose, now: Date): Promise<LinkRecord | null> {
    const c = this.#connection;
    return c.write(() =>
      toLink(c.statement(USE).get({ now: now.toISOString(), digest, purpose }) as LinkRow | undefined),
    );
  }

  useAll(email: string, purpose: LinkPurpose, now: Date): Promise<number> {
    const c = this.#connection;
    return c.write(() => Number(c.statement(USE_ALL).run({ now: now.toISOString(), email, purpose }).changes));
  }

  purgeDead(before: Date): Promise<number> {
    const c = this.#connection;
    return c.write(() => Number(c.statement(PURGE).run({ before: before.toISOString() }).changes));
  }
}

function toLink(row: LinkRow | undefined): LinkRecord | null {
  return row
    ? {
        id: row.id,
        purpose: row.purpose,
        email: row.email,
        userId: row.user_id,
        passwordHash: row.password_hash,
        digest: row.digest,
        createdAt: new Date(row.created_at),
        expiresAt: new Date(row.expires_at),
        usedAt: row.used_at ? new Date(row.used_at) : null,
        mailed: row.mailed,
      }
    : null;
}
