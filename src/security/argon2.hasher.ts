import argon2 from 'argon2';
import type { PasswordHasher } from '../domain/ports.ts';

export interface Argon2Settings {
  /** KiB. OWASP minimum for argon2id: 19456 (19 MiB) with t=2, p=1. */
  readonly memoryCost: number;
  readonly timeCost: number;
  readonly parallelism: number;
}

export const OWASP_ARGON2: Argon2Settings = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

export class Argon2Hasher implements PasswordHasher {
  readonly #settings: Argon2Settings;

  constructor(settings: Argon2Settings = OWASP_ARGON2) {
    this.#settings = settings;
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id, ...this.#settings });
  }

  needsRehash(hash: string): boolean {
    try {
      return argon2.needsRehash(hash, this.#settings);
    } catch {
      return true;
    }
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      // A corrupt stored hash authenticates nobody.
      return false;
    }
  }
}
