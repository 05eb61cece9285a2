// Every index the adapter relies on, created idempotently at start-up (createIndexes with the
// same definition is a no-op) and by `school-search indexes`; with them, the indexes the catalog
// extension keeps on the schools (the search wing's, handed through the port in
// src/mongodb-shared/catalog.port.ts: CatalogExtension.indexes).
import type { Collection, Db, IndexDescription } from 'mongodb';
import { DEAD_TOKEN_RETENTION_MS } from '../../domain/accounts/credentials.ts';
import { StoreUnavailableError } from '../../domain/shared/errors.ts';
import { DEAD_LINK_RETENTION_MS } from '../../domain/accounts/link.ts';
import type { ExistingIndex } from '../../mongodb-shared/catalog.port.ts';
import { COLLECTIONS } from './documents.ts';
import { guarded, isIndexNotFound, MongoSetupError } from '../../mongodb-shared/errors.ts';

export type Indexes = Readonly<Record<keyof typeof COLLECTIONS, readonly IndexDescription[]>>;

/** The store's own indexes. */
export const INDEXES: Indexes = {
  // Found by _id; the extension's indexes are added to these (indexesWith). The changes since a
  // version (catalogChanges) are found by the ticket of the import that wrote them.
  schools: [{ name: 'schools_by_change', key: { changedIn: 1 } }],
  users: [{ name: 'users_email_unique', key: { email: 1 }, unique: true }],
  tokens: [
    { name: 'tokens_digest_unique', key: { digest: 1 }, unique: true },
    { name: 'tokens_by_user', key: { userId: 1, createdAt: -1, seq: -1 } },
    // Dead tokens (revoked or expired) go a day after they stopped working, as purgeDead does.
    { name: 'tokens_dead_ttl', key: { deadAt: 1 }, expireAfterSeconds: DEAD_TOKEN_RETENTION_MS / 1000 },
  ],
  requests: [
    // History pages (newest first, ties by id), read from the index alone.
    { name: 'requests_by_user_time', key: { userId: 1, timeMade: -1, _id: -1, cost: 1 } },
    // A read counts its own user's records not yet counted in their day's usage (request.store.ts):
    // only those are in it, a handful in flight and any a crash left, found by their user.
    {
      name: 'requests_pending_by_user',
      key: { userId: 1, timeMade: 1 },
      partialFilterExpression: { pending: true },
    },
    // The retention purge: every user's records older than a day, oldest first, a batch at a time.
    { name: 'requests_by_time', key: { timeMade: 1 } },
    // One API key's history (fetchMyRequests?key_id=), in the history's order; only records made with a key.
    {
      name: 'requests_by_key',
      key: { userId: 1, keyId: 1, timeMade: -1, _id: -1 },
      partialFilterExpression: { keyId: { $exists: true } },
    },
  ],
  // One document, found by its _id.
  catalog: [],
  usageDays: [
    // A user's days: the history's total and the usage totals sum them; the chart reads a range.
    { name: 'usage_days_by_user_day', key: { userId: 1, day: 1 } },
    // The retention purge folds every user's days older than the longest chart, oldest first.
    { name: 'usage_days_by_day', key: { day: 1 } },
  ],
  // A counter goes once its window is over (the store also ignores an expired one: TTL runs once a minute).
  quotas: [{ name: 'rate_limits_ttl', key: { resetAt: 1 }, expireAfterSeconds: 0 }],
  migrations: [],
  leases: [],
  links: [
    { name: 'links_digest_unique', key: { digest: 1 }, unique: true },
    { name: 'links_by_email', key: { email: 1, purpose: 1 } },
    // Used or expired links go a day after they stopped working, as purgeDead does.
    { name: 'links_dead_ttl', key: { deadAt: 1 }, expireAfterSeconds: DEAD_LINK_RETENTION_MS / 1000 },
  ],
  outbox: [
    // claimDue's order, its tie-break included: due first, then by id, read in index order.
    { name: 'mail_outbox_due_by_id', key: { nextAttemptAt: 1, _id: 1 } },
    // discardExpired's range, which every instance reads every 15 s: without it, a scan of the outbox.
    { name: 'mail_outbox_discard', key: { discardAfter: 1 } },
  ],
};

/**
 * Indexes of earlier versions that no query reads any more, dropped once the current ones exist:
 * `requests_by_user_day` was written with every record and read by nothing (usage per day is
 * kept in usage_days); `requests_pending` held every user's pending records under one key;
 * `mail_outbox_due` lacked the `_id` its reader sorts ties by (mail_outbox_due_by_id has it).
 */
export const OUTDATED: Readonly<Partial<Record<keyof typeof COLLECTIONS, readonly string[]>>> = {
  requests: ['requests_by_user_day', 'requests_pending'],
  outbox: ['mail_outbox_due'],
};

export interface IndexFailure {
  readonly collection: string;
  readonly index: string;
  readonly message: string;
}

/** Thrown when the server refused some indexes; the others were created. */
export class IndexCreationError extends MongoSetupError {
  readonly failures: readonly IndexFailure[];
  constructor(failures: readonly IndexFailure[]) {
    super(`MongoDB refused indexes: ${failures.map((f) => `${f.collection}.${f.index} (${f.message})`).join('; ')}`);
    this.failures = failures;
  }
}

/** The store's indexes and, on the schools, the extension's. */
export function indexesWith(search: readonly IndexDescription[]): Indexes {
  return { ...INDEXES, schools: [...INDEXES.schools, ...search] };
}

/**
 * The index of the extension's per-version collection (CatalogExtension.perVersion) the store
 * reads it by: an import's version bump deletes every document of another version, which
 * without it is a scan of the collection (issue 43, L5).
 */
export function perVersionIndex(collection: string): IndexDescription {
  return { name: `${collection}_by_version`, key: { version: 1 } };
}

/** Every index as `collection.name`, the per-version collection's included (`school-search indexes` prints them). */
export function indexNames(all: Indexes, perVersion?: string): string[] {
  return [
    ...Object.entries(all).flatMap(([key, list]) =>
      list.map((i) => `${COLLECTIONS[key as keyof typeof COLLECTIONS]}.${i.name}`),
    ),
    ...(perVersion === undefined ? [] : [`${perVersion}.${perVersionIndex(perVersion).name}`]),
  ];
}

/**
 * Creates every index (one at a time, so one refusal does not hide the others), after dropping
 * those of the schools that `replaced` names (the extension's: CatalogExtension.replaced), and
 * the per-version collection's when there is one.
 */
export async function ensureIndexes(
  db: Db,
  all: Indexes,
  replaced: (existing: readonly ExistingIndex[]) => readonly string[] = () => [],
  perVersion?: string,
): Promise<void> {
  const schools = db.collection(COLLECTIONS.schools);
  for (const name of replaced(await existingIndexes(schools))) await dropIfThere(schools, name);
  const failures: IndexFailure[] = [];
  const lists: (readonly [string, readonly IndexDescription[]])[] = [
    ...Object.entries(all).map(([key, list]) => [COLLECTIONS[key as keyof typeof COLLECTIONS], list] as const),
    ...(perVersion === undefined ? [] : [[perVersion, [perVersionIndex(perVersion)]] as const]),
  ];
  for (const [collection, indexes] of lists) {
    for (const index of indexes) {
      try {
        await guarded(() => db.collection(collection).createIndexes([index]));
      } catch (error) {
        if (error instanceof StoreUnavailableError) throw error;
        failures.push({
          collection,
          index: index.name ?? '?',
          message: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }
  await dropOutdatedIndexes(db);
  if (failures.length > 0) throw new IndexCreationError(failures);
}

async function dropOutdatedIndexes(db: Db): Promise<void> {
  for (const [key, names] of Object.entries(OUTDATED)) {
    const collection = db.collection(COLLECTIONS[key as keyof typeof COLLECTIONS]);
    const existing = await existingIndexes(collection);
    for (const name of names) if (existing.some((i) => i.name === name)) await dropIfThere(collection, name);
  }
}

/** Drops an index; one another instance dropped since it was listed is no failure (isIndexNotFound). */
async function dropIfThere(collection: Collection, name: string): Promise<void> {
  try {
    await guarded(() => collection.dropIndex(name));
  } catch (error) {
    if (!isIndexNotFound(error)) throw error;
  }
}

/** A collection's indexes; none when the collection does not exist yet. */
async function existingIndexes(collection: Collection): Promise<ExistingIndex[]> {
  try {
    return await guarded(() => collection.listIndexes().toArray());
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw error;
    return []; // No collection yet (or no listIndexes): nothing to drop.
  }
}
