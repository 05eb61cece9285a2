import { EmailTakenError } from '../../domain/errors.ts';
import type { User, UserStore } from '../../domain/ports.ts';
import type { Connection } from './connection.ts';

interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  created_at: string;
}

const INSERT = 'INSERT INTO users (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)';
const BY_EMAIL = 'SELECT id, email, password_hash, created_at FROM users WHERE email = ?';
const BY_ID = 'SELECT id, email, password_hash, created_at FROM users WHERE id = ?';
const SET_HASH = 'UPDATE users SET password_hash = ? WHERE id = ?';

export class SqliteUserStore implements UserStore {
  readonly #connection: Connection;

  constructor(connection: Connection) {
    this.#connection = connection;
  }

  create(user: User): Promise<void> {
    const c = this.#connection;
    return c.write(() => {
      try {
        c.statement(INSERT).run(user.id, user.email, user.passwordHash, user.createdAt.toISOString());
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

  setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    const c = this.#connection;
    return c.write(() => void c.statement(SET_HASH).run(passwordHash, userId));
  }
}

function toUser(row: UserRow | undefined): User | null {
  return row
    ? { id: row.id, email: row.email, passwordHash: row.password_hash, createdAt: new Date(row.created_at) }
    : null;
}
