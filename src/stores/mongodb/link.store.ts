import type { Collection } from 'mongodb';
import type { LinkPurpose, LinkRecord, LinkStore } from '../../domain/accounts/accounts.ports.ts';
import type { LinkDocument } from './documents.ts';
import { BOUNDED_READ } from './limits.ts';
import { MAJORITY } from './majority.ts';
import { guarded } from '../../mongodb-shared/errors.ts';

export class MongoLinkStore implements LinkStore {
  readonly #links: Collection<LinkDocument>;

  constructor(links: Collection<LinkDocument>) {
    this.#links = links;
  }

  async insert(l: LinkRecord): Promise<void> {
    await guarded(() =>
      this.#links.insertOne({
        _id: l.id,
        purpose: l.purpose,
        email: l.email,
        userId: l.userId,
        passwordHash: l.passwordHash,
        digest: l.digest,
        createdAt: l.createdAt,
        expiresAt: l.expiresAt,
        usedAt: l.usedAt,
        deadAt: l.usedAt && l.usedAt < l.expiresAt ? l.usedAt : l.expiresAt,
        mailed: l.mailed,
      }),
    );
  }

  async findPending(email: string, purpose: LinkPurpose, expiresAfter: Date): Promise<LinkRecord | null> {
    const docs = await guarded(() =>
      this.#links
        .find(live({ email, purpose }, expiresAfter), BOUNDED_READ)
        .sort({ createdAt: -1, _id: -1 })
        .limit(1)
        .toArray(),
    );
    return toLink(docs[0] ?? null);
  }

  async noteMailed(id: string, max: number): Promise<boolean> {
    // `mailed: {$lt}` does not match documents without the field (links of before): those count from 0.
    const result = await guarded(() =>
      this.#links.updateOne(
        { _id: id, $or: [{ mailed: { $lt: max } }, { mailed: { $exists: false } }] },
        { $inc: { mailed: 1 } },
      ),
    );
    return result.modifiedCount === 1;
  }

  async release(id: string, usedAt: Date): Promise<boolean> {
    const doc = await guarded(() => this.#links.findOne({ _id: id, usedAt }, BOUNDED_READ));
    if (!doc) return false;
    const result = await guarded(() =>
      this.#links.updateOne({ _id: id, usedAt }, { $set: { usedAt: null, deadAt: doc.expiresAt } }, MAJORITY),
    );
    return result.modifiedCount === 1;
  }

  async findLive(digest: string, purpose: LinkPurpose, now: Date): Promise<LinkRecord | null> {
    return toLink(await guarded(() => this.#links.findOne(live({ digest, purpose }, now), BOUNDED_READ)));
  }

  async use(digest: string, purpose: LinkPurpose, now: Date): Promise<LinkRecord | null> {
    const doc = await guarded(() => this.#links.findOne(live({ digest, purpose }, now), BOUNDED_READ));
    if (!doc) return null;
    // A conditional update (usedAt still null): of two requests with the same link, one changes it.
    const result = await guarded(() =>
      this.#links.updateOne({ _id: doc._id, usedAt: null }, { $set: { usedAt: now, deadAt: now } }, MAJORITY),
    );
    return result.modifiedCount === 1 ? toLink({ ...doc, usedAt: now, deadAt: now }) : null;
  }

  async useAll(email: string, purpose: LinkPurpose, now: Date): Promise<number> {
    const result = await guarded(() =>
      this.#links.updateMany(live({ email, purpose }, now), { $set: { usedAt: now, deadAt: now } }, MAJORITY),
    );
    return result.modifiedCount;
  }

  async purgeDead(before: Date): Promise<number> {
    return (await guarded(() => this.#links.deleteMany({ deadAt: { $lt: before } }))).deletedCount;
  }
}

function live<T extends object>(filter: T, now: Date) {
  return { ...filter, usedAt: null, expiresAt: { $gt: now } };
}

function toLink(doc: LinkDocument | null): LinkRecord | null {
  return doc
    ? {
        id: doc._id,
        purpose: doc.purpose,
        email: doc.email,
        userId: doc.userId,
        passwordHash: doc.passwordHash,
        digest: doc.digest,
        createdAt: doc.createdAt,
        expiresAt: doc.expiresAt,
        usedAt: doc.usedAt,
        mailed: doc.mailed ?? 0,
      }
    : null;
}
