import argon2 from 'argon2';
import { availableParallelism } from 'node:os';
import type { PasswordHasher } from '../domain/accounts/accounts.ports.ts';
import { Slots } from './slots.ts';

export interface Argon2Settings {
  /** KiB. OWASP minimum for argon2id: 19456 (19 MiB) with t=2, p=1. */
  readonly memoryCost: number;
  readonly timeCost: number;
  readonly parallelism: number;
}

export const OWASP_ARGON2: Argon2Settings = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * Hashes computed at once by default: all CPUs but one, so that a burst of logins (each hash
 * takes a CPU for tens of milliseconds and 19 MiB) always leaves a CPU to the event loop that
 * serves searches. More logins wait their turn, first come first served.
 */
export const DEFAULT_HASH_CONCURRENCY = Math.max(1, availableParallelism() - 1);

export class Argon2Hasher implements PasswordHasher {
  readonly #settings: Argon2Settings;
  readonly #slots: Slots;

  constructor(settings: Argon2Settings = OWASP_ARGON2, concurrency = DEFAULT_HASH_CONCURRENCY) {
    this.#settings = settings;
    this.#slots = new Slots(concurrency);
  }

  hash(password: string): Promise<string> {
    return this.#slots.run(() => argon2.hash(password, { type: argon2.argon2id, ...this.#settings }));
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
      return await this.#slots.run(() => argon2.verify(hash, password));
    } catch {
      // A corrupt stored hash authenticates nobody.
      return false;
    }
  }
}
