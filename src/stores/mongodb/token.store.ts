import { ObjectId, type Collection } from 'mongodb';
import type { TokenRecord, TokenStore } from '../../domain/ports.ts';
import type { TokenDocument } from './documents.ts';
import { guarded } from '../../mongodb/errors.ts';

/** Newest first; `seq` orders tokens issued in the same millisecond by issue order. */
const NEWEST_FIRST = { createdAt: -1, seq: -1 } as const;

export class MongoTokenStore implements TokenStore {
  readonly #tokens: Collection<TokenDocument>;

  constructor(tokens: Collection<TokenDocument>) {
    this.#tokens = tokens;
  }

  async insert(token: TokenRecord): Promise<void> {
    await guarded(() => this.#tokens.insertOne(toDocument(token)));
  }

  async findByDigest(digest: string): Promise<TokenRecord | null> {
    const doc = await guarded(() => this.#tokens.findOne({ digest }));
    return doc ? toToken(doc) : null;
  }

  async listLive(userId: string, now: Date): Promise<TokenRecord[]> {
    const docs = await guarded(() => this.#tokens.find(live(userId, now)).sort(NEWEST_FIRST).toArray());
    return docs.map(toToken);
  }

  async revoke(userId: string, tokenId: string, now: Date): Promise<boolean> {
    const result = await guarded(() =>
      this.#tokens.updateOne({ _id: tokenId, ...live(userId, now) }, { $set: { revokedAt: now, deadAt: now } }),
    );
    return result.modifiedCount === 1;
  }

  /**
   * Without a multi-document transaction (a standalone server has none): the new token goes in
   * first, then the old one is revoked only if it is still live; when the server answers that it
   * was not, the new one is taken out again. When the revocation fails with no answer (its
   * outcome unknown), the new token is left to expire unused: deleting it could leave the user
   * with neither, if the revocation did happen.
   */
  async rotate(userId: string, oldId: string, next: TokenRecord, now: Date): Promise<boolean> {
    await this.insert(next);
    const revoked = await this.revoke(userId, oldId, now);
    if (!revoked) await guarded(() => this.#tokens.deleteOne({ _id: next.id }));
    return revoked;
  }

  async revokeAllExcept(userId: string, keepId: string, now: Date): Promise<number> {
    const result = await guarded(() =>
      this.#tokens.updateMany(
        { ...live(userId, now), _id: { $ne: keepId } },
        { $set: { revokedAt: now, deadAt: now } },
      ),
    );
    return result.modifiedCount;
  }

  async insertSession(token: TokenRecord, keep: number, now: Date): Promise<number> {
    // Two operations: a multi-document transaction would need a replica set, and the insert
    // alone is already the session (a crash between them leaves one session too many, trimmed
    // at the next login).
    await this.insert(token);
    return this.revokeAllButNewest(token.userId, keep, now);
  }

  async revokeAllButNewest(userId: string, keep: number, now: Date): Promise<number> {
    // Documents written before API keys existed have no kind: they are sessions.
    const sessions = { ...live(userId, now), kind: { $ne: 'key' as const } };
    const beyond = await guarded(() =>
      this.#tokens
        .find(sessions, { projection: { _id: 1 } })
        .sort(NEWEST_FIRST)
        .skip(keep)
        .toArray(),
    );
    if (beyond.length === 0) return 0;
    const result = await guarded(() =>
      this.#tokens.updateMany(
        { _id: { $in: beyond.map((d) => d._id) }, ...live(userId, now) },
        { $set: { revokedAt: now, deadAt: now } },
      ),
    );
    return result.modifiedCount;
  }

  async touch(tokenId: string, now: Date, notBefore: Date): Promise<void> {
    // `lastUsedAt: null` also matches documents without the field.
    await guarded(() =>
      this.#tokens.updateOne(
        { _id: tokenId, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: notBefore } }] },
        { $set: { lastUsedAt: now } },
      ),
    );
  }

  async purgeDead(before: Date): Promise<number> {
    // deadAt is the earlier of revokedAt and expiresAt (see toDocument), kept by every revocation.
    const result = await guarded(() => this.#tokens.deleteMany({ deadAt: { $lt: before } }));
    return result.deletedCount;
  }
}

function live(userId: string, now: Date) {
  return { userId, revokedAt: null, expiresAt: { $gt: now } };
}

function toDocument(t: TokenRecord): TokenDocument {
  const deadAt = t.revokedAt && t.revokedAt < t.expiresAt ? t.revokedAt : t.expiresAt;
  return {
    _id: t.id,
    userId: t.userId,
    kind: t.kind,
    name: t.name,
    digest: t.digest,
    hint: t.hint,
    createdAt: t.createdAt,
    expiresAt: t.expiresAt,
    revokedAt: t.revokedAt,
    lastUsedAt: t.lastUsedAt,
    deadAt,
    seq: new ObjectId(),
  };
}

function toToken(doc: TokenDocument): TokenRecord {
  return {
    id: doc._id,
    userId: doc.userId,
    kind: doc.kind ?? 'session',
    name: doc.name ?? null,
    digest: doc.digest,
    hint: doc.hint,
    createdAt: doc.createdAt,
    expiresAt: doc.expiresAt,
    revokedAt: doc.revokedAt,
    lastUsedAt: doc.lastUsedAt ?? null,
  };
}
