// Search answers given again as the JSON they were first sent as. A search box asks the same
// prefixes and names again and again, and on a 2-vCPU server the answer's making was half of a
// repeated search's CPU: the engine's page of 25 schools read out of the packed catalog, three
// objects per school on the way to the contract's shape, and JSON.stringify of ~9 KB. Kept, an
// answer costs a map lookup and its record (docs/performance.md has the figures).
//
// Only answers of the engine's current edition are given again (engine.ts: the in-process index
// is immutable and replaced whole when the catalog changes), so a kept answer is byte for byte
// what the engine would answer now. An engine without editions (MongoDB's) has none kept. Every
// search is metered as before: a kept answer gets a record of its own, durable before it is sent.
import type * as api from '../../../generated/types.gen.ts';
import type { Principal } from '../../domain/auth.service.ts';
import type { RequestRecord } from '../../domain/ports.ts';
import type { SearchInput, SearchService } from '../../domain/search.service.ts';
import { recordBody, searchResultBody } from './bodies.ts';
import { AnswerCache } from './answer-cache.ts';
import { SerializedJson } from './operations.ts';

/**
 * The answers' text kept at most, in bytes. The bench's mix (2,499 distinct searches) has 12 MiB
 * of answers, most of it in pages of 25 schools (~9 KB each) of one- to four-letter prefixes and
 * common words; which go when room is needed: answer-cache.ts. 10 MiB, not 6: replayed, the mix
 * is answered from kept answers 89 % of the time instead of 74 %, and a search made again walks
 * the index's bitsets and writes ~9 KB of JSON, memory traffic that slows every other request on
 * a machine whose caches are shared (docs/performance.md, Run N).
 */
export const ANSWER_BYTES = 10 * 1024 * 1024;

/** Searches remembered as asked (256 KiB): the doorkeeper of the answers kept (#askedBefore). */
const ASKED_SLOTS = 1 << 16;

type Reply = SerializedJson<api.SchoolSearchResponse>;

export class SearchAnswers {
  readonly #search: SearchService;
  readonly #publicBaseUrl: string;
  /** The edition the kept answers are of; they are all dropped when it changes. */
  #edition: object | undefined;
  /** Search key → its `requestresult` as JSON. */
  readonly #kept: AnswerCache;
  /** Searches asked before, as a 32-bit hash of the key in a slot of its own (collisions overwrite). */
  readonly #asked = new Uint32Array(ASKED_SLOTS);

  constructor(search: SearchService, publicBaseUrl: string, budget = ANSWER_BYTES) {
    this.#search = search;
    this.#publicBaseUrl = publicBaseUrl;
    this.#kept = new AnswerCache(budget);
  }

  /** Bytes of answers kept now (tests). */
  get bytes(): number {
    return this.#kept.bytes;
  }

  async answer(principal: Principal, input: SearchInput): Promise<Reply> {
    const key = keyOf(input);
    const edition = this.#search.edition();
    if (edition !== this.#edition) this.#forget(edition);
    const kept = edition === undefined ? undefined : this.#kept.get(key);
    if (kept !== undefined) return reply(await this.#search.meter(principal, input), kept);
    const outcome = await this.#search.search(principal, input);
    const result = JSON.stringify(searchResultBody(outcome, input.offset, input.limit, this.#publicBaseUrl));
    // The edition may have moved on while the search was metered: then the answer is not kept.
    if (outcome.edition !== undefined && outcome.edition === this.#edition && this.#askedBefore(key))
      this.#kept.set(key, result);
    return reply(outcome.record, result);
  }

  /**
   * Whether the search was asked before (and notes that it was). An answer is kept from its
   * second asking on: most searches typed are never asked again, and keeping them all would only
   * push the ones asked again out (and make garbage of them at the rate searches come).
   */
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

/** Everything a search's answer depends on, as the caller gave it (the same search written otherwise is another key). */
function keyOf(input: SearchInput): string {
  return JSON.stringify([
    input.query,
    input.stateCode ?? null,
    input.levels ?? null,
    input.types ?? null,
    input.near?.latitude ?? null,
    input.near?.longitude ?? null,
    input.radiusKm ?? null,
    input.offset,
    input.limit,
  ]);
}

/** FNV-1a over the key's UTF-16 units; never 0, the empty slot's value. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0 || 1;
}

function reply(record: RequestRecord, result: string): Reply {
  return new SerializedJson(`{"apirequest":${JSON.stringify(recordBody(record))},"requestresult":`, result, '}');
}
