import type { MailOutbox, OutboxEntry } from '../../domain/mail/mail.ports.ts';
import type { Connection } from './connection.ts';
import { transaction } from './database.ts';

interface OutboxRow {
  id: string;
  recipient: string;
  subject: string;
  body: string;
  created_at: string;
  discard_after: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  link_id: string | null;
  link_url: string | null;
  link_secret: string | null;
}

const COLUMNS =
  'id, recipient, subject, body, created_at, discard_after, attempts, next_attempt_at, last_error, link_id, link_url, link_secret';
const INSERT = `INSERT INTO mail_outbox (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
// Claiming moves next_attempt_at past the hold: another claim (another process) skips them.
const CLAIM = `UPDATE mail_outbox SET next_attempt_at = :held WHERE id IN (
    SELECT id FROM mail_outbox WHERE next_attempt_at <= :now ORDER BY next_attempt_at, id LIMIT :limit)
  RETURNING ${COLUMNS}`;
const DELIVERED = 'DELETE FROM mail_outbox WHERE id = ?';
const FAILED = 'UPDATE mail_outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?';
const EXPIRED = `SELECT ${COLUMNS} FROM mail_outbox WHERE discard_after < ?`;
const DISCARD = 'DELETE FROM mail_outbox WHERE discard_after < ?';

export class SqliteMailOutbox implements MailOutbox {
  readonly #connection: Connection;

  constructor(connection: Connection) {
    this.#connection = connection;
  }

  enqueue(e: OutboxEntry): Promise<void> {
    const c = this.#connection;
    return c.write(
      () =>
        void c
          .statement(INSERT)
          .run(
            e.id,
            e.to,
            e.subject,
            e.text,
            e.createdAt.toISOString(),
            e.discardAfter.toISOString(),
            e.attempts,
            e.nextAttemptAt.toISOString(),
            e.lastError,
            e.link?.id ?? null,
            e.link?.url ?? null,
            e.link?.secretId ?? null,
          ),
    );
  }

  claimDue(now: Date, heldUntil: Date, limit: number): Promise<OutboxEntry[]> {
    const c = this.#connection;
    return c.write(() =>
      (
        c
          .statement(CLAIM)
          .all({ now: now.toISOString(), held: heldUntil.toISOString(), limit }) as unknown as OutboxRow[]
      )
        .map(toEntry)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id)),
    );
  }

  delivered(id: string): Promise<void> {
    const c = this.#connection;
    return c.write(() => void c.statement(DELIVERED).run(id));
  }

  drop(id: string): Promise<void> {
    return this.delivered(id);
  }

  failed(id: string, error: string, nextAttemptAt: Date): Promise<void> {
    const c = this.#connection;
    return c.write(() => void c.statement(FAILED).run(error, nextAttemptAt.toISOString(), id));
  }

  discardExpired(now: Date): Promise<OutboxEntry[]> {
    const c = this.#connection;
    const at = now.toISOString();
    return c.write(() =>
      transaction(c.db, () => {
        const rows = (c.statement(EXPIRED).all(at) as unknown as OutboxRow[]).map(toEntry);
        if (rows.length > 0) c.statement(DISCARD).run(at);
        return rows;
      }),
    );
  }
}

function toEntry(row: OutboxRow): OutboxEntry {
  return {
    id: row.id,
    to: row.recipient,
    subject: row.subject,
    text: row.body,
    createdAt: new Date(row.created_at),
    discardAfter: new Date(row.discard_after),
    attempts: row.attempts,
    nextAttemptAt: new Date(row.next_attempt_at),
    lastError: row.last_error,
    ...(row.link_id !== null && row.link_url !== null && row.link_secret !== null
      ? { link: { id: row.link_id, url: row.link_url, secretId: row.link_secret } }
      : {}),
  };
}
