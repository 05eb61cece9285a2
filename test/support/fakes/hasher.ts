import type { PasswordHasher } from '../../../src/domain/accounts/accounts.ports.ts';

/** Not a hash: the password, marked. Domain tests need a hasher's contract, not argon2's cost. */
export class FakeHasher implements PasswordHasher {
  /** Hashes made with this prefix count as made with other settings (needsRehash). */
  readonly prefix: string;

  constructor(prefix = 'fake1$') {
    this.prefix = prefix;
  }

  verifications = 0;

  async hash(password: string): Promise<string> {
    return this.prefix + password;
  }

  async verify(hash: string, password: string): Promise<boolean> {
    this.verifications++;
    return hash.slice(hash.indexOf('$') + 1) === password;
  }

  needsRehash(hash: string): boolean {
    return !hash.startsWith(this.prefix);
  }
}
