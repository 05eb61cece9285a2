import type { Collection } from 'mongodb';
import { EmailTakenError } from '../../domain/errors.ts';
import type { User, UserStore } from '../../domain/ports.ts';
import type { UserDocument } from './documents.ts';
import { guarded, isDuplicateKey } from '../../mongodb/errors.ts';

export class MongoUserStore implements UserStore {
  readonly #users: Collection<UserDocument>;

  constructor(users: Collection<UserDocument>) {
    this.#users = users;
  }

  async create(user: User): Promise<void> {
    try {
      await guarded(() =>
        this.#users.insertOne({
          _id: user.id,
          email: user.email,
          passwordHash: user.passwordHash,
          createdAt: user.createdAt,
        }),
      );
    } catch (error) {
      if (isDuplicateKey(error, 'email')) throw new EmailTakenError(user.email);
      throw error;
    }
  }

  async findByEmail(email: string): Promise<User | null> {
    return toUser(await guarded(() => this.#users.findOne({ email })));
  }

  async findById(id: string): Promise<User | null> {
    return toUser(await guarded(() => this.#users.findOne({ _id: id })));
  }

  async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    await guarded(() => this.#users.updateOne({ _id: userId }, { $set: { passwordHash } }));
  }
}

function toUser(doc: UserDocument | null): User | null {
  return doc ? { id: doc._id, email: doc.email, passwordHash: doc.passwordHash, createdAt: doc.createdAt } : null;
}
