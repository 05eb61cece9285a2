// Search answers kept to be given again, as the text they were first sent as. A search box asks the
// same prefixes and names again and again, and making an answer is much of a repeated search's
// CPU: the engine's page of 25 schools read out of the packed catalog, three objects per school on
// the way to the contract's shape, and JSON.stringify of the page. Kept, an answer costs a map
// lookup (docs/search.md, "Answers given again", has the figures).
//
// Only answers of the engine's current edition are kept and given (engine.port.ts: the in-process
// index is immutable and replaced whole when the catalog changes), so a kept answer is byte for
// byte what the engine would answer now. An engine without editions (MongoDB's) has none kept.
import { AnswerCache, type KeptText } from './answer-cache.ts';

/**
 * The answers' text kept at most, in bytes. Sized on the bench's mix, whose answers are mostly
 * pages of 25 schools of one- to four-letter prefixes and common words: this answers most of its
 * searches from kept answers and leaves the server under its memory target, where 6 MiB answered
 * far fewer (docs/search.md, "Answers given again"; docs/runs/performance.md, Run N). Which go
 * when room is needed: answer-cache.ts.
 */
export const ANSWER_BYTES = 10 * 1024 * 1024;

/** Searches remembered as asked (256 KiB): the doorkeeper of the answers kept (#askedBefore). */
const ASKED_SLOTS = 1 << 16;

export class KeptAnswers {
  /** The edition the kept answers are of; they are all dropped when it changes. */
  #edition: object | undefined;
  /** Search key (search-key.ts) → its answer's text. */
  readonly #kept: AnswerCache;
  /** Searches asked before, as a 32-bit hash of the key in a slot of its own (collisions overwrite). */
  readonly #asked = new Uint32Array(ASKED_SLOTS);

  constructor(budget = ANSWER_BYTES) {
    this.#kept = new AnswerCache(budget);
  }

  /** Bytes of answers kept now. */
  get bytes(): number {
    return this.#kept.bytes;
  }

  /** The answer kept for `key` in `edition` (the engine's current one), if any. */
  get(key: string, edition: object | undefined): KeptText | undefined {
    if (edition !== this.#edition) this.#forget(edition);
    return edition === undefined ? undefined : this.#kept.get(key);
  }

  /**
   * Keeps an answer made in `edition`, from its search's second asking on: most searches typed are
   * never asked again, and keeping them all would only push the ones asked again out (and make
   * garbage of them at the rate searches come). An edition that moved on meanwhile keeps nothing.
   * The kept answer, when it was kept.
   */
  keep(key: string, edition: object | undefined, text: string): KeptText | undefined {
    if (edition !== undefined && edition === this.#edition && this.#askedBefore(key)) return this.#kept.set(key, text);
    return undefined;
  }

  #askedBefore(key: string): boolean {
    const hash = hashOf(key);
    const slot = hash & (ASKED_SLOTS - 1);
    if (this.#asked[slot] === hash) return true;
    this.#asked[slot] = hash;
    return false;
  }

  #forget(edition: object | undefined): void {
    this.#kept.clear();
    this.#edition = edition;
  }
}

/** FNV-1a over the key's UTF-16 units; never 0, the empty slot's value. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0 || 1;
}
