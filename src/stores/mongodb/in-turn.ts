// Updates of one document from this process, one after another. FerretDB v1 (what the tests
// run against) loses updates of one document made at once (measured: of 100 concurrent $inc,
// 10 counted); MongoDB does not, but is spared its write-conflict retries on a hot document.
// Across processes FerretDB still loses them: docs/scaling.md says what that leaves untested.
export class InTurn {
  readonly #turns = new Map<string, Promise<unknown>>();

  /** Runs `work` once every earlier work of this key has settled. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#turns.get(key) ?? Promise.resolve();
    const mine = previous.then(work);
    const settled = mine.catch(() => undefined);
    this.#turns.set(key, settled);
    void settled.then(() => {
      if (this.#turns.get(key) === settled) this.#turns.delete(key);
    });
    return mine;
  }
}
