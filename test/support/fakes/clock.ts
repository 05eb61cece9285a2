import type { Clock } from '../../../src/domain/shared/clock.ts';

/** A clock that moves only when told: expiry, windows and days without waiting. */
export class FakeClock implements Clock {
  #now: number;

  constructor(start = '2026-01-15T12:00:00.000Z') {
    this.#now = Date.parse(start);
  }

  now(): Date {
    return new Date(this.#now);
  }

  advance(ms: number): void {
    this.#now += ms;
  }
}
