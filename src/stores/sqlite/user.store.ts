import { EmailTakenError } from '../../domain/shared/errors.ts';
import type { PasswordChangeRecord, User, UserStore } from '../../domain/accounts/accounts.ports.ts';
import type { Connection } from './connection.ts';
import { transaction } from './database.ts';

interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  created_at: string;
  password_version: number;
  keys_from_version: number;
}

const COLUMNS = 'id, email, password_hash, created_at, password_version, keys_from_version';
const INSERT = `INSERT INTO users (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`;
const BY_EMAIL = `SELECT ${COLUMNS} FROM users WHERE email = ?`;
const BY_ID = `SELECT ${COLUMNS} FROM users WHERE id = ?`;
const REHASH = 'UPDATE users SET password_hash = :to WHERE id = :id AND password_hash = :from';
// SET reads the row as it was: keys_from_version moves to the new version (old + 1).
const SET_PASSWORD = `UPDATE users SET password_hash = :hash, password_version = password_version + 1,
  keys_from_version = CASE WHEN :revokeKeys THEN password_version + 1 ELSE keys_from_version END
  WHERE id = :id RETURNING password_version`;
const CARRY_OVER = `UPDATE tokens SET password_version = :version, authenticated_at = :now
  WHERE id = :keep AND user_id = :id AND revoked_at IS NULL AND expires_at > :now`;
const REVOKE_OTHERS = `UPDATE tokens SET revoked_at = :now
  WHERE user_id = :id AND id <> :keep AND revoked_at IS NULL AND expires_at > :now AND (kind = 'session' OR :revokeKeys)`;

export class SqliteUserStore implements UserStore {
  readonly #connection: Connection;
  /** Told of every password change, before it is made (the token store forgets what it remembers). */
  readonly #onPasswordChange: () => void;

  constructor(connection: Connection, onPasswordChange: () => void = () => {}) {
    this.#connection = connection;
    this.#onPasswordChange = onPasswordChange;
  }

  create(user: User): Promise<void> {
    const c = this.#connection;
    return c.write(() => {
      try {
        c.statement(INSERT).run(
          user.id,
          user.email,
          user.passwordHash,
          user.createdAt.toISOString(),
          user.passwordVersion,
          user.keysFromVersion,
        );
      } catch (error) {
        // SQLITE_CONSTRAINT_UNIQUE (2067) on users.email
        if ((error as { errcode?: number }).errcode === 2067) throw new EmailTakenError(user.email);
        throw error;
      }
    });
  }

  findByEmail(email: string): Promise<User | null> {
    const c = this.#connection;
    return c.read(() => toUser(c.statement(BY_EMAIL).get(email) as UserRow | undefined));
  }

  findById(id: string): Promise<User | null> {
    const c = this.#connection;
    return c.read(() => toUser(c.statement(BY_ID).get(id) as UserRow | undefined));
  }

  rehash(userId: string, from: string, to: string): Promise<boolean> {
    const c = this.#connection;
    return c.write(() => Number(c.statement(REHASH).run({ id: userId, from, to }).changes) === 1);
  }

  /** The hash, the version, the kept token and the revocations in one transaction. */
  setPassword(change: PasswordChangeRecord): Promise<number> {
    this.#onPasswordChange();
    const c = this.#connection;
    const now = change.now.toISOString();
    const common = { id: change.userId, now, keep: change.keepTokenId ?? '' };
    return c.write(() =>
      transaction(c.db, () => {
        const row = c
          .statement(SET_PASSWORD)
          .get({ id: change.userId, hash: change.passwordHash, revokeKeys: change.revokeKeys ? 1 : 0 }) as
          | { password_version: number }
          | undefined;
        if (!row) return -1;
        c.statement(CARRY_OVER).run({ ...common, version: row.password_version });
        c.statement(REVOKE_OTHERS).run({ ...common, revokeKeys: change.revokeKeys ? 1 : 0 });
        return row.password_version;
      }),
    );
  }
}

function toUser(row: UserRow | undefined): User | null {
  return row
    ? {
        id: row.id,
        email: row.email,
        passwordHash: row.password_hash,
        createdAt: new Date(row.created_at),
        passwordVersion: row.password_version,
        keysFromVersion: row.keys_from_version,
      }
    : null;
}
