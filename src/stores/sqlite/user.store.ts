import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { EmailTakenError } from '../../domain/errors.ts';
import type { User, UserStore } from '../../domain/ports.ts';
import { guarded } from './errors.ts';

interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  created_at: string;
}

export class SqliteUserStore implements UserStore {
  readonly #insert: StatementSync;
  readonly #byEmail: StatementSync;
  readonly #byId: StatementSync;
  readonly #setHash: StatementSync;

  constructor(db: DatabaseSync) {
    this.#insert = db.prepare('INSERT INTO users (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)');
    this.#byEmail = db.prepare('SELECT id, email, password_hash, created_at FROM users WHERE email = ?');
    this.#byId = db.prepare('SELECT id, email, password_hash, created_at FROM users WHERE id = ?');
    this.#setHash = db.prepare('UPDATE users SET password_hash = ? WHERE id = ?');
  }

  create(user: User): Promise<void> {
    return guarded(() => {
      try {
        this.#insert.run(user.id, user.email, user.passwordHash, user.createdAt.toISOString());
      } catch (error) {
        // SQLITE_CONSTRAINT_UNIQUE (2067) on users.email
        if ((error as { errcode?: number }).errcode === 2067) throw new EmailTakenError(user.email);
        throw error;
      }
    });
  }

  findByEmail(email: string): Promise<User | null> {
    return guarded(() => toUser(this.#byEmail.get(email) as UserRow | undefined));
  }

  findById(id: string): Promise<User | null> {
    return guarded(() => toUser(this.#byId.get(id) as UserRow | undefined));
  }

  setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    return guarded(() => void this.#setHash.run(passwordHash, userId));
  }
}

function toUser(row: UserRow | undefined): User | null {
  return row
    ? { id: row.id, email: row.email, passwordHash: row.password_hash, createdAt: new Date(row.created_at) }
    : null;
}
