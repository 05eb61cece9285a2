// The embedded store: every port on one SQLite file (Node's built-in node:sqlite).
import type { Store } from '../../domain/store.port.ts';
import { Connection } from './connection.ts';
import { identityOf } from './store-identity.ts';
import type { SqliteOptions } from './database.ts';
import { SqliteLinkStore } from './link.store.ts';
import { SqliteMailOutbox } from './outbox.store.ts';
import { SqliteQuotaCounter, type QuotaWarning } from './quota.store.ts';
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
  readonly links: SqliteLinkStore;
  readonly outbox: SqliteMailOutbox;
  readonly quotas: SqliteQuotaCounter | undefined;
  readonly #connection: Connection;

  private constructor(connection: Connection, warn: QuotaWarning | undefined) {
    this.#connection = connection;
    // A store in memory is one process's alone: its quotas stay in that process (express-rate-limit's own store).
    this.quotas = connection.inMemory ? undefined : SqliteQuotaCounter.open(connection.path, warn ? { warn } : {});
    this.schools = new SqliteSchoolStore(connection);
    this.tokens = new SqliteTokenStore(connection);
    // A password changed here: the tokens remembered are read again (their account's state moved).
    this.users = new SqliteUserStore(connection, () => this.tokens.forgetAll());
    // A record refused because its token no longer held: that token is not remembered anymore.
    this.requests = new SqliteRequestLog(connection, (tokenId) => this.tokens.forget(tokenId));
    this.links = new SqliteLinkStore(connection);
    this.outbox = new SqliteMailOutbox(connection);
  }

  /** Opens (creating when missing) and migrates the store; waits while another process holds the lock. */
  static async open(options: SqliteOptions): Promise<SqliteStore> {
    return new SqliteStore(await Connection.open(options), options.warn);
  }

  async ping(): Promise<void> {
    // Reads a real page of the file, so a lost, replaced or unreadable file shows here.
    await this.#connection.read(() => void this.#connection.statement('SELECT id FROM users LIMIT 1').get());
    // A store that answers reads but refused the last write (disk full, lock held past the busy
    // budget, read-only) is not ready until a write goes through again.
    if (this.#connection.writesFailing) await this.#connection.probe();
    // Nor while searches cannot be metered: until a commit of records, or the probe of what a
    // record writes committed where records are, goes through again (request.store.ts).
    if (this.requests.failing) await this.requests.probe();
    // Every request a rate limit covers needs the counters too: readiness waits for them.
    await this.quotas?.ping();
  }

  /**
   * The identity of the file open now (store-identity.ts), as text: what a file kept beside it
   * says it belongs to (the search index's, src/composition/index-files.ts).
   */
  identity(): Promise<string> {
    const c = this.#connection;
    return c.read(() => `sqlite:${identityOf(c.db) >>> 0}`);
  }

  async close(): Promise<void> {
    await this.requests.close();
    this.quotas?.close();
    this.#connection.close();
  }
}
