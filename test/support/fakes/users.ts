import { EmailTakenError } from '../../../src/domain/errors.ts';
import type { User, UserStore } from '../../../src/domain/ports.ts';

/** Users in a Map; an e-mail is unique, as the adapters' unique index makes it. */
export class MemoryUserStore implements UserStore {
  readonly #byId = new Map<string, User>();

  async create(user: User): Promise<void> {
    if ([...this.#byId.values()].some((u) => u.email === user.email)) throw new EmailTakenError(user.email);
    this.#byId.set(user.id, { ...user });
  }

  async findByEmail(email: string): Promise<User | null> {
    return [...this.#byId.values()].find((u) => u.email === email) ?? null;
  }

  async findById(id: string): Promise<User | null> {
    return this.#byId.get(id) ?? null;
  }

  async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    const user = this.#byId.get(userId);
    if (user) this.#byId.set(userId, { ...user, passwordHash });
  }
}
