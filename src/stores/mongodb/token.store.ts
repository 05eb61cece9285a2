import { ObjectId, type Collection } from 'mongodb';
import type { HeldToken, KeyChange, TokenRecord, TokenStore } from '../../domain/accounts/accounts.ports.ts';
import type { TokenDocument, UserDocument } from './documents.ts';
import { BOUNDED_READ } from './limits.ts';
import { MAJORITY } from './majority.ts';
import { guarded } from '../../mongodb-shared/errors.ts';

/** Newest first; `seq` orders tokens issued in the same millisecond by issue order. */
const NEWEST_FIRST = { createdAt: -1, seq: -1 } as const;

export class MongoTokenStore implements TokenStore {
  readonly #tokens: Collection<TokenDocument>;
  readonly #users: Collection<UserDocument>;

  constructor(tokens: Collection<TokenDocument>, users: Collection<UserDocument>) {
    this.#tokens = tokens;
    this.#users = users;
  }

  async insert(token: TokenRecord): Promise<void> {
    await guarded(() => this.#tokens.insertOne(toDocument(token)));
  }

  async findByDigest(digest: string): Promise<TokenRecord | null> {
    const doc = await guarded(() => this.#tokens.findOne({ digest }, BOUNDED_READ));
    return doc ? toToken(doc) : null;
  }

  /** Two reads (no join on FerretDB): the token, then its account's versions. */
  async findHeld(digest: string): Promise<HeldToken | null> {
    const doc = await guarded(() => this.#tokens.findOne({ digest }, BOUNDED_READ));
    if (!doc) return null;
    const holder = await this.#holder(doc.userId);
    return holder ? { token: toToken(doc), holder } : null;
  }

  /** Whether token `id` is live at `at` and holds for its account now (the request log's madeWith). */
  async holds(id: string, at: Date): Promise<HeldToken | null> {
    const doc = await guarded(() =>
      this.#tokens.findOne({ _id: id, revokedAt: null, expiresAt: { $gt: at } }, BOUNDED_READ),
    );
    if (!doc) return null;
    const holder = await this.#holder(doc.userId);
    return holder ? { token: toToken(doc), holder } : null;
  }

  async #holder(userId: string): Promise<HeldToken['holder'] | null> {
    const user = await guarded(() =>
      this.#users.findOne({ _id: userId }, { projection: { passwordVersion: 1, keysFromVersion: 1 }, ...BOUNDED_READ }),
    );
    return user ? { passwordVersion: user.passwordVersion ?? 0, keysFromVersion: user.keysFromVersion ?? 0 } : null;
  }

  async listLive(userId: string, now: Date): Promise<TokenRecord[]> {
    const docs = await guarded(() => this.#tokens.find(live(userId, now), BOUNDED_READ).sort(NEWEST_FIRST).toArray());
    return docs.map(toToken);
  }

  async revoke(userId: string, tokenId: string, now: Date): Promise<boolean> {
    const result = await guarded(() =>
      this.#tokens.updateOne(
        { _id: tokenId, ...live(userId, now) },
        { $set: { revokedAt: now, deadAt: now } },
        MAJORITY,
      ),
    );
    return result.modifiedCount === 1;
  }

  async updateKey(userId: string, tokenId: string, change: KeyChange, now: Date): Promise<TokenRecord | null> {
    // A scope only ever replaces a scope: a secret key (no `publishable`) never gets one.
    const set = {
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.publishable !== undefined ? { publishable: change.publishable } : {}),
    };
    const filter = {
      _id: tokenId,
      ...live(userId, now),
      kind: 'key' as const,
      ...(change.publishable !== undefined ? { publishable: { $exists: true } } : {}),
    };
    const doc = await guarded(() =>
      this.#tokens.findOneAndUpdate(filter, { $set: set }, { ...MAJORITY, returnDocument: 'after' }),
    );
    return doc ? toToken(doc) : null;
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
        MAJORITY,
      ),
    );
    return result.modifiedCount;
  }

  async insertSession(token: TokenRecord, keep: number, now: Date): Promise<number | null> {
    // Without a multi-document transaction (it would need a replica set): the insert alone is
    // already the session (a crash before the trim leaves one session too many, trimmed at the
    // next login). The account is read after the insert: a password changed before it moved
    // the version, and the session is taken back; one changed after it revokes the session
    // itself (UserStore.setPassword). Either way no session of the old password holds.
    await this.insert(token);
    const holder = await this.#holder(token.userId);
    if (holder?.passwordVersion !== token.passwordVersion) {
      await guarded(() =>
        this.#tokens.updateOne({ _id: token.id }, { $set: { revokedAt: now, deadAt: now } }, MAJORITY),
      );
      return null;
    }
    return this.revokeAllButNewest(token.userId, keep, now);
  }

  async revokeAllButNewest(userId: string, keep: number, now: Date): Promise<number> {
    // Documents written before API keys existed have no kind: they are sessions.
    const sessions = { ...live(userId, now), kind: { $ne: 'key' as const } };
    const beyond = await guarded(() =>
      this.#tokens
        .find(sessions, { projection: { _id: 1 }, ...BOUNDED_READ })
        .sort(NEWEST_FIRST)
        .skip(keep)
        .toArray(),
    );
    if (beyond.length === 0) return 0;
    const result = await guarded(() =>
      this.#tokens.updateMany(
        { _id: { $in: beyond.map((d) => d._id) }, ...live(userId, now) },
        { $set: { revokedAt: now, deadAt: now } },
        MAJORITY,
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
    ...(t.publishable ? { publishable: t.publishable } : {}),
    digest: t.digest,
    hint: t.hint,
    createdAt: t.createdAt,
    expiresAt: t.expiresAt,
    revokedAt: t.revokedAt,
    lastUsedAt: t.lastUsedAt,
    passwordVersion: t.passwordVersion,
    authenticatedAt: t.authenticatedAt,
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
    ...(doc.publishable ? { publishable: doc.publishable } : {}),
    digest: doc.digest,
    hint: doc.hint,
    createdAt: doc.createdAt,
    expiresAt: doc.expiresAt,
    revokedAt: doc.revokedAt,
    lastUsedAt: doc.lastUsedAt ?? null,
    passwordVersion: doc.passwordVersion ?? 0,
    authenticatedAt: doc.authenticatedAt ?? doc.createdAt,
  };
}
