import { EmailTakenError } from '../../../src/domain/shared/errors.ts';
import type { PasswordChangeRecord, User, UserStore } from '../../../src/domain/accounts/accounts.ports.ts';
import type { MemoryTokenStore } from './tokens.ts';

/** Users in a Map; an e-mail is unique, as the adapters' unique index makes it. */
export class MemoryUserStore implements UserStore {
  readonly #byId = new Map<string, User>();
  /** Where setPassword carries the kept token over and revokes the others. */
  readonly #tokens: MemoryTokenStore | undefined;

  constructor(tokens?: MemoryTokenStore) {
    this.#tokens = tokens;
  }

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

  async rehash(userId: string, from: string, to: string): Promise<boolean> {
    const user = this.#byId.get(userId);
    if (user?.passwordHash !== from) return false;
    this.#byId.set(userId, { ...user, passwordHash: to });
    return true;
  }

  async setPassword(change: PasswordChangeRecord): Promise<number> {
    const user = this.#byId.get(change.userId);
    if (!user) return -1;
    const version = user.passwordVersion + 1;
    this.#byId.set(user.id, {
      ...user,
      passwordHash: change.passwordHash,
      passwordVersion: version,
      keysFromVersion: change.revokeKeys ? version : user.keysFromVersion,
    });
    this.#tokens?.passwordChanged(change, version);
    return version;
  }
}
