// A small concurrency limit (the password hasher's), first come first served.

/** At most `size` tasks running at once; the others wait in order. */
export class Slots {
  readonly #size: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(size: number) {
    this.#size = Math.max(1, size);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#size) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running++;
    try {
      return await task();
    } finally {
      // The slot passes to the next waiting task, or is freed.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}
