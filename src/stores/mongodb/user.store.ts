import type { Collection, Filter } from 'mongodb';
import { EmailTakenError } from '../../domain/shared/errors.ts';
import type { PasswordChangeRecord, User, UserStore } from '../../domain/accounts/accounts.ports.ts';
import type { TokenDocument, UserDocument } from './documents.ts';
import { BOUNDED_READ } from './limits.ts';
import { MAJORITY } from './majority.ts';
import { guarded, isDuplicateKey } from '../../mongodb-shared/errors.ts';

export class MongoUserStore implements UserStore {
  readonly #users: Collection<UserDocument>;
  readonly #tokens: Collection<TokenDocument>;

  constructor(users: Collection<UserDocument>, tokens: Collection<TokenDocument>) {
    this.#users = users;
    this.#tokens = tokens;
  }

  async create(user: User): Promise<void> {
    try {
      await guarded(() =>
        this.#users.insertOne(
          {
            _id: user.id,
            email: user.email,
            passwordHash: user.passwordHash,
            createdAt: user.createdAt,
            passwordVersion: user.passwordVersion,
            keysFromVersion: user.keysFromVersion,
          },
          MAJORITY,
        ),
      );
    } catch (error) {
      if (isDuplicateKey(error, 'email')) throw new EmailTakenError(user.email);
      throw error;
    }
  }

  async findByEmail(email: string): Promise<User | null> {
    return toUser(await guarded(() => this.#users.findOne({ email }, BOUNDED_READ)));
  }

  async findById(id: string): Promise<User | null> {
    return toUser(await guarded(() => this.#users.findOne({ _id: id }, BOUNDED_READ)));
  }

  async rehash(userId: string, from: string, to: string): Promise<boolean> {
    const result = await guarded(() =>
      this.#users.updateOne({ _id: userId, passwordHash: from }, { $set: { passwordHash: to } }, MAJORITY),
    );
    return result.modifiedCount === 1;
  }

  /**
   * Without a transaction (a standalone server has none), in the order that is safe at every
   * step: the hash and the version together first (one document: atomic), a compare and set on
   * the version read, so that two changes at once each take a version of their own. From then
   * on no session of the old password holds (credentials.ts), whether or not the steps after it
   * happen: the kept token carried over to the new version, then the others revoked. A failure
   * between them leaves the kept token void (sign in again) and the others void but listed:
   * never one that works and should not. Every step acknowledged by a majority.
   */
  async setPassword(change: PasswordChangeRecord): Promise<number> {
    let version: number;
    for (;;) {
      const doc = await guarded(() =>
        this.#users.findOne({ _id: change.userId }, { projection: { passwordVersion: 1 }, ...BOUNDED_READ }),
      );
      if (!doc) return -1;
      const current = doc.passwordVersion ?? 0;
      version = current + 1;
      const result = await guarded(() =>
        this.#users.updateOne(
          { _id: change.userId, ...versionIs(current) },
          {
            $set: {
              passwordHash: change.passwordHash,
              passwordVersion: version,
              ...(change.revokeKeys ? { keysFromVersion: version } : {}),
            },
          },
          MAJORITY,
        ),
      );
      if (result.matchedCount === 1) break;
    }
    const { now, userId } = change;
    const live = { userId, revokedAt: null, expiresAt: { $gt: now } };
    if (change.keepTokenId !== null) {
      const keep = change.keepTokenId;
      await guarded(() =>
        this.#tokens.updateOne(
          { _id: keep, ...live },
          { $set: { passwordVersion: version, authenticatedAt: now } },
          MAJORITY,
        ),
      );
    }
    await guarded(() =>
      this.#tokens.updateMany(
        {
          ...live,
          _id: { $ne: change.keepTokenId ?? '' },
          // Documents written before API keys existed have no kind: they are sessions.
          ...(change.revokeKeys ? {} : { kind: { $ne: 'key' as const } }),
        },
        { $set: { revokedAt: now, deadAt: now } },
        MAJORITY,
      ),
    );
    return version;
  }
}

/** The filter of a version: 0 is also what a document without the field has. */
function versionIs(version: number): Filter<UserDocument> {
  return version === 0
    ? { $or: [{ passwordVersion: 0 }, { passwordVersion: { $exists: false } }] }
    : { passwordVersion: version };
}

function toUser(doc: UserDocument | null): User | null {
  return doc
    ? {
        id: doc._id,
        email: doc.email,
        passwordHash: doc.passwordHash,
        createdAt: doc.createdAt,
        passwordVersion: doc.passwordVersion ?? 0,
        keysFromVersion: doc.keysFromVersion ?? 0,
      }
    : null;
}
