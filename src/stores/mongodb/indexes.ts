// Every index the adapter relies on, created idempotently at start-up (createIndexes with the
// same definition is a no-op) and by `school-search indexes`.
import type { Db, IndexDescription } from 'mongodb';
import { DEAD_TOKEN_RETENTION_MS } from '../../domain/auth.service.ts';
import { StoreUnavailableError } from '../../domain/errors.ts';
import { COLLECTIONS, TEXT_INDEX } from './documents.ts';
import { guarded, MongoSetupError } from './errors.ts';

export const INDEXES: Readonly<Record<keyof typeof COLLECTIONS, readonly IndexDescription[]>> = {
  schools: [
    {
      name: TEXT_INDEX,
      // Only names and alternative names: the contract matches those, never the city.
      key: { 'texts.grams': 'text' },
      // 'none': no stemming and no stop words; the domain has normalised the terms already.
      default_language: 'none',
      // The default override field, `language`, would let a document pick a stemmer; no field has this name.
      language_override: 'textIndexLanguage',
    },
  ],
  users: [{ name: 'users_email_unique', key: { email: 1 }, unique: true }],
  tokens: [
    { name: 'tokens_digest_unique', key: { digest: 1 }, unique: true },
    { name: 'tokens_by_user', key: { userId: 1, createdAt: -1, seq: -1 } },
    // Dead tokens (revoked or expired) go a day after they stopped working, as purgeDead does.
    { name: 'tokens_dead_ttl', key: { deadAt: 1 }, expireAfterSeconds: DEAD_TOKEN_RETENTION_MS / 1000 },
  ],
  requests: [
    // History pages (newest first, ties by id) and the usage totals, read from the index alone.
    { name: 'requests_by_user_time', key: { userId: 1, timeMade: -1, _id: -1, cost: 1 } },
  ],
  // One document, found by its _id.
  catalog: [],
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

/** Creates every index (one at a time, so one refusal does not hide the others). */
export async function ensureIndexes(db: Db): Promise<void> {
  const failures: IndexFailure[] = [];
  for (const [collection, indexes] of Object.entries(INDEXES)) {
    for (const index of indexes) {
      try {
        await guarded(() => db.collection(collection).createIndexes([index]));
      } catch (error) {
        if (error instanceof StoreUnavailableError) throw error;
        failures.push({ collection, index: index.name ?? '?', message: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  if (failures.length > 0) throw new IndexCreationError(failures);
}
