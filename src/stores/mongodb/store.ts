// The production store: every port on one MongoDB database (official driver). Selected by
// MONGODB_URI (src/composition/store.ts). Storage only: searches are answered by the search wing
// (src/search/), which reads the catalog through the store (the in-process index, by default) or
// runs its pipelines on the catalog as the store serves it (`catalog`, the port in
// src/mongodb-shared/catalog.port.ts: MONGODB_SEARCH). The fields the wing keeps in each school's
// document come in as a catalog extension, which the store writes without reading.
import { MongoClient, ReadPreference, type Db, type MongoClientOptions } from 'mongodb';
import type { Store } from '../../domain/store.port.ts';
import type { CatalogExtension, PerVersionDocument } from '../../mongodb-shared/catalog.port.ts';
import type { CatalogDocument, SchoolDocument } from '../../mongodb-shared/school-document.ts';
import type { CatalogReads, ServedCatalog } from '../../mongodb-shared/served-catalog.ts';
import type { StoreWarning } from '../store.config.ts';
import {
  COLLECTIONS,
  type LinkDocument,
  type OutboxDocument,
  type QuotaDocument,
  type RequestDocument,
  type TokenDocument,
  type UsageDayDocument,
  type UserDocument,
} from './documents.ts';
import { guarded, MongoSetupError } from '../../mongodb-shared/errors.ts';
import { ensureIndexes, IndexCreationError, indexesWith, indexNames, type Indexes } from './indexes.ts';
import {
  CONNECT_TIMEOUT_MS,
  MAX_POOL_SIZE,
  SERVER_SELECTION_TIMEOUT_MS,
  SOCKET_TIMEOUT_MS,
  WAIT_QUEUE_TIMEOUT_MS,
} from './limits.ts';
import type { LeaseDocument } from './lease.ts';
import { MongoLinkStore } from './link.store.ts';
import { MongoMailOutbox } from './outbox.store.ts';
import { MongoQuotaCounter } from './quota.store.ts';
import { countingFor, DEFAULT_COUNTING, MongoRequestLog, type Counting } from './request.store.ts';
import { MongoSchoolStore } from './school.store.ts';
import { MongoTokenStore } from './token.store.ts';
import { migrateUsage } from './usage.migration.ts';
import { MongoUserStore } from './user.store.ts';

export const DEFAULT_DATABASE = 'school_search';

/**
 * The catalog, read for serving, may come from a secondary: every instance reads the whole of it
 * after each import, and a lagging member only delays when an import is seen (as the version poll
 * does). One more than 90 s behind (the least maxStalenessSeconds allowed) is passed over;
 * majority reads never see a write a failover could roll back. Tokens, users and request records
 * stay on the primary: a token just revoked must be refused by the very next request.
 */
const CATALOG_READS = {
  readPreference: new ReadPreference('secondaryPreferred', undefined, { maxStalenessSeconds: 90 }),
  readConcern: { level: 'majority' },
} as const;

export interface MongoOptions<Fields extends object = object> {
  readonly uri: string;
  /** Default: the database named in the URI's path, else `school_search`. */
  readonly database?: string | undefined;
  /**
   * The fields every school's document carries beside the store's, the indexes over them and
   * their per-version collection (the search wing's, handed by the composition root): the store
   * writes, indexes and cleans them up, and never reads them.
   */
  readonly extension: CatalogExtension<Fields>;
  /**
   * At open: `create` (default) creates missing indexes; `none` leaves them to
   * `school-search indexes` (an operator who wants index builds at a time of their choosing).
   */
  readonly indexes?: 'create' | 'none';
  /** Open a store whose core collections are gone (see checkCollections); default false. */
  readonly allowMissingCollections?: boolean;
  /**
   * For `school-search indexes`: an index build on a large collection answers only when it is
   * done, so no socket timeout unless the URI sets one (the API's would cut it off).
   */
  readonly waitForIndexBuilds?: boolean;
  /** Where the store says what it waits for at open (another instance filling the usage counters). */
  readonly warn?: StoreWarning | undefined;
}

/** The collections every store has had since its first version, made (with their indexes) at its first start. */
const CORE_COLLECTIONS = [COLLECTIONS.schools, COLLECTIONS.users, COLLECTIONS.tokens, COLLECTIONS.requests];

/** A database that holds part of a store: opening it would make the rest anew (and seed over it). */
export class StoreCollectionsMissingError extends MongoSetupError {}

export class MongoStore<Fields extends object = object> implements Store {
  readonly kind = 'mongodb';
  readonly schools: MongoSchoolStore<Fields>;
  readonly users: MongoUserStore;
  readonly tokens: MongoTokenStore;
  readonly requests: MongoRequestLog;
  readonly quotas: MongoQuotaCounter;
  readonly links: MongoLinkStore;
  readonly outbox: MongoMailOutbox;
  readonly db: Db;
  /** Every index of the store: its own, and the extension's on the schools. */
  readonly indexes: Indexes;
  readonly #extension: CatalogExtension<Fields>;
  readonly #client: MongoClient;

  private constructor(client: MongoClient, db: Db, extension: CatalogExtension<Fields>, counting: Counting) {
    this.#client = client;
    this.db = db;
    this.#extension = extension;
    this.indexes = indexesWith(extension.indexes);
    const perVersion = extension.perVersion;
    this.schools = new MongoSchoolStore(
      db.collection<SchoolDocument<Fields>>(COLLECTIONS.schools),
      db.collection<CatalogDocument>(COLLECTIONS.catalog),
      extension,
      catalogReads(client, db),
      perVersion === undefined ? undefined : <T extends PerVersionDocument>() => db.collection<T>(perVersion),
    );
    const users = db.collection<UserDocument>(COLLECTIONS.users);
    const tokens = db.collection<TokenDocument>(COLLECTIONS.tokens);
    this.users = new MongoUserStore(users, tokens);
    this.tokens = new MongoTokenStore(tokens, users);
    this.quotas = new MongoQuotaCounter(db.collection<QuotaDocument>(COLLECTIONS.quotas));
    this.links = new MongoLinkStore(db.collection<LinkDocument>(COLLECTIONS.links));
    this.outbox = new MongoMailOutbox(db.collection<OutboxDocument>(COLLECTIONS.outbox));
    this.requests = new MongoRequestLog(
      db.collection<RequestDocument>(COLLECTIONS.requests),
      db.collection<UsageDayDocument>(COLLECTIONS.usageDays),
      Date.now,
      counting,
      db.collection<LeaseDocument>(COLLECTIONS.leases),
      this.tokens,
    );
  }

  /** The catalog as it is read for serving: the port the search engines on MongoDB run on. */
  get catalog(): ServedCatalog<Fields> {
    return this.schools.catalog;
  }

  /** Connects (failing within the server selection timeout when nothing answers) and creates the indexes. */
  static async open<Fields extends object>(options: MongoOptions<Fields>): Promise<MongoStore<Fields>> {
    const client = new MongoClient(options.uri, clientOptions(options.uri, options));
    try {
      const counting = countingOf(client, options);
      await guarded(() => client.connect());
      // Reads from the primary whatever the URI prefers: a token just issued or revoked must be
      // seen as such by the next request.
      const db = client.db(options.database ?? databaseOf(options.uri), { readPreference: 'primary' });
      const store = new MongoStore(client, db, options.extension, counting);
      if ((options.indexes ?? 'create') === 'create') {
        if (!options.allowMissingCollections) await checkCollections(db, options.extension);
        await store.createIndexes(options.warn ? { warn: options.warn } : {});
      }
      await store.ping();
      return store;
    } catch (error) {
      await client.close();
      throw error;
    }
  }

  /**
   * Creates every index, the extension's on the schools included, after dropping those it says
   * they replace (the Atlas Search index is the search wing's own to create: src/search/mongodb/setup.ts).
   */
  async createIndexes(options: { warn?: StoreWarning } = {}): Promise<void> {
    // The usage migration needs none of the indexes a server may refuse (FerretDB: TTL, text).
    const refused = await ensureIndexes(
      this.db,
      this.indexes,
      (existing) => this.#extension.replaced(existing),
      this.#extension.perVersion,
    ).then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof IndexCreationError) return error;
        throw error;
      },
    );
    // Once per database; an instance that finds another doing it waits, and says so now and then.
    let said = 0;
    await migrateUsage(this.db, {
      onWait: ({ batches }) => {
        if (Date.now() - said < 10_000) return;
        said = Date.now();
        options.warn?.('waiting for another instance to fill the usage counters from older records', {
          batchesDone: batches,
        });
      },
    });
    if (refused) throw refused;
  }

  /** Every index createIndexes makes, as `collection.name`. */
  indexNames(): string[] {
    return indexNames(this.indexes, this.#extension.perVersion);
  }

  async ping(): Promise<void> {
    // The default read preference is the primary: without one (no majority, election) this
    // fails, and so would every write.
    await guarded(() => this.db.command({ ping: 1 }));
  }

  async close(): Promise<void> {
    await this.#client.close();
  }
}

/** The catalog's collections as searches and the index read them (CATALOG_READS), and their session (src/mongodb-shared/served-catalog.ts). */
export function catalogReads(client: MongoClient, db: Db): CatalogReads {
  return {
    schools: db.collection<SchoolDocument>(COLLECTIONS.schools, CATALOG_READS),
    catalog: db.collection<CatalogDocument>(COLLECTIONS.catalog, CATALOG_READS),
    session: () => client.startSession({ causalConsistency: true }),
  };
}

/**
 * The client's limits (limits.ts), each unless the URI sets its own: a store that does not answer
 * is a 503 within seconds (server selection), a silent connection fails after the socket timeout,
 * and when every pooled connection is busy an operation waits for one at most the wait queue
 * timeout. Each failure is StoreUnavailableError (errors.ts).
 */
export function clientOptions(uri: string, options: Pick<MongoOptions, 'waitForIndexBuilds'> = {}): MongoClientOptions {
  const defaults = {
    serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS,
    socketTimeoutMS: options.waitForIndexBuilds ? 0 : SOCKET_TIMEOUT_MS,
    connectTimeoutMS: CONNECT_TIMEOUT_MS,
    maxPoolSize: MAX_POOL_SIZE,
    waitQueueTimeoutMS: WAIT_QUEUE_TIMEOUT_MS,
  } as const;
  // The URI's options by name (case-insensitive, as the driver reads them); hosts may be a list.
  const query = uri.includes('?') ? uri.slice(uri.indexOf('?') + 1) : '';
  const named = new Set(query.split('&').map((pair) => pair.split('=')[0]!.toLowerCase()));
  return {
    appName: 'school-search',
    ...Object.fromEntries(Object.entries(defaults).filter(([key]) => !named.has(key.toLowerCase()))),
  };
}

/**
 * How the request log counts records, from the client's limits: a usage count is handed from one
 * instance to another only once the first one's write can no longer land (request.store.ts), which
 * needs every limit finite. A URI that sets one to 0 (none) is refused, since a request could then
 * also wait without end. `school-search indexes` (no socket timeout) records nothing.
 */
function countingOf(client: MongoClient, options: Pick<MongoOptions, 'waitForIndexBuilds'>): Counting {
  if (options.waitForIndexBuilds) return DEFAULT_COUNTING;
  const limits = {
    serverSelectionTimeoutMS: client.options.serverSelectionTimeoutMS,
    waitQueueTimeoutMS: client.options.waitQueueTimeoutMS,
    socketTimeoutMS: client.options.socketTimeoutMS,
  };
  const unbounded = Object.entries(limits).filter(([, value]) => !(value > 0));
  if (unbounded.length > 0) {
    throw new MongoSetupError(
      `MONGODB_URI sets ${unbounded.map(([name]) => `${name}=0`).join(' and ')} (no limit): a request would wait ` +
        'without end on a busy pool or a silent connection, and a usage count could land after another instance ' +
        'made it. Leave it out (the default applies) or give it a limit in milliseconds (docs/operations.md).',
    );
  }
  return countingFor(limits);
}

/** The URI with its path naming this database (options kept): e.g. a fresh database for a test run. */
export function withDatabase(uri: string, database: string): string {
  return uri.replace(/^(mongodb(?:\+srv)?:\/\/[^/?]*)(\/[^?]*)?/, `$1/${encodeURIComponent(database)}`);
}

/** The database named in a mongodb:// or mongodb+srv:// URI's path, else the default. */
export function databaseOf(uri: string): string {
  const path = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]*)/.exec(uri)?.[1];
  if (!path) return DEFAULT_DATABASE;
  try {
    return decodeURIComponent(path);
  } catch {
    throw new MongoSetupError(`the database name "${path}" in MONGODB_URI is not valid percent-encoding`);
  }
}

/**
 * A database with none of the store's collections is a new store. One with some of them is an
 * existing store, and then every core collection must be there: one that is gone (dropped, or a
 * restore that missed it) is not made again, empty, and seeded over, which would hide the loss
 * of every user, token or record it held. MONGODB_ALLOW_MISSING_COLLECTIONS=true opens it anyway.
 */
async function checkCollections(db: Db, extension: Pick<CatalogExtension, 'perVersion'>): Promise<void> {
  const names = new Set((await guarded(() => db.listCollections({}, { nameOnly: true }).toArray())).map((c) => c.name));
  const ours = [
    ...Object.values(COLLECTIONS),
    ...(extension.perVersion === undefined ? [] : [extension.perVersion]),
  ].filter((name) => names.has(name));
  if (ours.length === 0) return;
  const missing = CORE_COLLECTIONS.filter((name) => !names.has(name));
  if (missing.length === 0) return;
  throw new StoreCollectionsMissingError(
    `The MongoDB database ${db.databaseName} holds a school-search store (${ours.join(', ')}) whose ` +
      `collections ${missing.join(', ')} are missing. They are not made again empty, which would hide the loss ` +
      'of what they held: restore them from a backup, or set MONGODB_ALLOW_MISSING_COLLECTIONS=true to open ' +
      'the store with them empty.',
  );
}
