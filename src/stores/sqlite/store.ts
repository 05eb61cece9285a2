// The embedded store: every port on one SQLite file (Node's built-in node:sqlite, FTS5).
import type { DatabaseSync } from 'node:sqlite';
import type { Store } from '../../domain/ports.ts';
import { configure, migrate, openDatabase, type SqliteOptions } from './database.ts';
import { guarded } from './errors.ts';
import { SqliteRequestLog } from './request.store.ts';
import { SqliteSchoolStore } from './school.store.ts';
import { SqliteTokenStore } from './token.store.ts';
import { SqliteUserStore } from './user.store.ts';

export class SqliteStore implements Store {
  readonly kind = 'sqlite';
  readonly schools: SqliteSchoolStore;
  readonly users: SqliteUserStore;
  readonly tokens: SqliteTokenStore;
  readonly requests: SqliteRequestLog;
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.schools = new SqliteSchoolStore(db);
    this.users = new SqliteUserStore(db);
    this.tokens = new SqliteTokenStore(db);
    this.requests = new SqliteRequestLog(db);
  }

  /** Opens (creating when missing) and migrates the store; waits while another process holds the lock. */
  static async open(options: SqliteOptions): Promise<SqliteStore> {
    const db = openDatabase(options);
    try {
      await guarded(() => configure(db));
      await guarded(() => migrate(db));
    } catch (error) {
      db.close();
      throw error;
    }
    return new SqliteStore(db);
  }

  ping(): Promise<void> {
    // Reads a real page of the file, so a lost or unreadable file shows here.
    return guarded(() => void this.#db.prepare('SELECT id FROM users LIMIT 1').get());
  }

  async close(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
  }
}
