// The answers KeptAnswers keeps, within a budget of bytes, and which of them go when a new one
// needs room: GreedyDual-Size-Frequency (Cao and Irani's GreedyDual-Size for web caches, with
// the hits counted as Cherkasova added them). An answer's worth is how often it was asked per
// byte it takes, on top of the worth of the last answer let go when it was last asked, so that
// answers asked long ago age out whatever they were worth then. A page of 25 schools (~9 KB)
// takes the room of twenty answers of one school, and a search box asks the one-school answers
// (a name typed in full, with a typo, near a place, filtered) as often as the long pages of a
// prefix: in the same budget, plain least-recently-used keeps far fewer of the bench mix's
// searches from the engine (docs/runs/performance.md, Run M). One answer larger than a sixteenth
// of the budget is never kept.
import FlatQueue from 'flatqueue';

/** A kept answer: the same object for as long as the answer stays kept (callers may key their own forms of it on it). */
export interface KeptText {
  readonly text: string;
}

interface Kept extends KeptText {
  readonly key: string;
  readonly text: string;
  /** What keeping it costs, in bytes. */
  readonly size: number;
  /** Times it was asked since it was kept (and the two askings before). */
  asked: number;
  /** Its worth now: the queue's entry of this value is its current one, others are stale. */
  worth: number;
}

/** What an entry costs besides its key and answer: the map's entry, its object, the queue's slot, the strings' headers. */
const ENTRY_OVERHEAD = 160;

export class AnswerCache {
  readonly #budget: number;
  readonly #kept = new Map<string, Kept>();
  /** The kept answers by worth, least first; an answer asked again is pushed again (its older entries are stale). */
  readonly #queue = new FlatQueue<Kept>();
  /** The worth of the last answer let go: what every answer's worth is counted from. */
  #floor = 0;
  #bytes = 0;

  constructor(budget: number) {
    this.#budget = budget;
  }

  /** Bytes of answers kept now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The answer kept for this key, counted as asked once more. */
  get(key: string): KeptText | undefined {
    const kept = this.#kept.get(key);
    if (kept === undefined) return undefined;
    kept.asked++;
    this.#value(kept);
    return kept;
  }

  /** Keeps the answer (asked twice so far: KeptAnswers keeps answers from their second asking), letting the least worth go for its room. */
  set(key: string, text: string): KeptText | undefined {
    const size = textBytes(key) + textBytes(text) + ENTRY_OVERHEAD;
    // The old answer goes first, whether or not the new one is kept: it is no longer the answer.
    this.delete(key);
    if (size > this.#budget / 16) return undefined;
    while (this.#bytes + size > this.#budget && this.#letGo());
    // The queue's arrays keep what was popped past its end until pushed over (flatqueue's
    // shrink()): answers let go would stay in memory, outside the budget.
    if (this.#queue.ids.length > this.#queue.length + 64) this.#queue.shrink();
    const kept: Kept = { key, text, size, asked: 2, worth: 0 };
    this.#kept.set(key, kept);
    this.#bytes += size;
    this.#value(kept);
    return kept;
  }

  delete(key: string): void {
    const kept = this.#kept.get(key);
    if (kept === undefined) return;
    this.#kept.delete(key);
    this.#bytes -= kept.size;
  }

  clear(): void {
    this.#kept.clear();
    this.#queue.clear();
    this.#queue.shrink();
    this.#floor = 0;
    this.#bytes = 0;
  }

  #value(kept: Kept): void {
    kept.worth = this.#floor + kept.asked / kept.size;
    this.#queue.push(kept, kept.worth);
    // Stale entries pile up as answers are asked again: past twice the answers, the queue is made anew.
    if (this.#queue.length > 2 * this.#kept.size + 1024) {
      this.#queue.clear();
      for (const k of this.#kept.values()) this.#queue.push(k, k.worth);
      this.#queue.shrink();
    }
  }

  /** Lets the answer of least worth go; false when none is kept. */
  #letGo(): boolean {
    for (;;) {
      const worth = this.#queue.peekValue();
      const kept = this.#queue.pop();
      if (kept === undefined || worth === undefined) return false;
      if (this.#kept.get(kept.key) !== kept || kept.worth !== worth) continue;
      this.#floor = worth;
      this.delete(kept.key);
      return true;
    }
  }
}

/** The bytes V8 keeps a text in: one a character when all are Latin-1, two otherwise. */
function textBytes(text: string): number {
  return (WIDE.test(text) ? 2 : 1) * text.length;
}
const WIDE = /[\u0100-\uffff]/;
