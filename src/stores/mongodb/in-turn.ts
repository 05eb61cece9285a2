// Updates of one document from this process, one after another. FerretDB v1 (what the tests
// run against) loses updates of one document made at once (measured: of 100 concurrent $inc,
// 10 counted); MongoDB does not, but is spared its write-conflict retries on a hot document.
// Across processes FerretDB still loses them: docs/scaling.md says what that leaves untested.

/** Refused by a key whose turns are all taken (run's `limit`): the work was not queued. */
export class TurnsFullError extends Error {
  override readonly name = 'TurnsFullError';
}

export class InTurn {
  readonly #turns = new Map<string, Promise<unknown>>();
  /** Per key, the works queued or running. */
  readonly #counts = new Map<string, number>();

  /**
   * Runs `work` once every earlier work of this key has settled. With `limit`, a key that has
   * that many works queued or running refuses another (TurnsFullError) instead of queueing it.
   */
  run<T>(key: string, work: () => Promise<T>, limit = Infinity): Promise<T> {
    const count = this.#counts.get(key) ?? 0;
    if (count >= limit) return Promise.reject(new TurnsFullError(`${count} works queued for one key`));
    this.#counts.set(key, count + 1);
    const previous = this.#turns.get(key) ?? Promise.resolve();
    const mine = previous.then(work);
    const settled = mine.catch(() => undefined);
    this.#turns.set(key, settled);
    void settled.then(() => {
      const left = (this.#counts.get(key) ?? 1) - 1;
      if (left === 0) this.#counts.delete(key);
      else this.#counts.set(key, left);
      if (this.#turns.get(key) === settled) this.#turns.delete(key);
    });
    return mine;
  }
}
