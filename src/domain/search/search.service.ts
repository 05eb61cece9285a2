// School search and its metering. No HTTP in here: the query is planned by the search rules
// (src/domain/search/), answered by whichever engine the composition root chose, or by an answer
// of the engine's current edition kept from before (kept-answers.ts), and every one of them is
// recorded: the caller asks for an answer and gets a metered one.
import { randomUUIDv7 } from 'node:crypto';
import type { Principal } from '../accounts/accounts.ports.ts';
import type { Clock } from '../shared/clock.ts';
import { IdempotencyKeyReusedError, RecordExistsError } from '../shared/errors.ts';
import { uuidV5 } from '../shared/ids.ts';
import type { RecordedSearch, RequestLog, RequestRecord } from '../metering/metering.ports.ts';
import type { EngineHit, SearchEngine, SearchRequest } from './engine.port.ts';
import type { KeptText } from './answer-cache.ts';
import { KeptAnswers } from './kept-answers.ts';
import { planQuery } from './query.ts';
import { requestKey } from './search-key.ts';

/** Credits one search costs (the unit of `trequestcost`). */
export const SEARCH_COST = 1;

export interface SearchOutcome {
  readonly record: RequestRecord;
  readonly total: number;
  /**
   * The page as the engine answered it, each school with its similarity_score (ranking-rules.ts: in
   * [0, 1], never higher than the one before it) and its distance_km from a `near`.
   */
  readonly hits: readonly EngineHit[];
  /** The engine's edition the answer came from (engine.port.ts): the same query answers the same while it is current. */
  readonly edition: object | undefined;
}

/** A metered answer: its request record, durable, and the answer's text as `render` made it. */
export interface MeteredAnswer {
  readonly record: RequestRecord;
  readonly text: string;
  /**
   * The kept answer the text is (kept-answers.ts), when it is kept: the same object for every
   * search answered from it while it stays kept, so that a caller may keep its own forms of the
   * text beside it (the HTTP layer's compressed bytes, in a WeakMap that lets them go with it).
   */
  readonly kept: KeptText | undefined;
}

export class SearchService {
  readonly #engine: SearchEngine;
  readonly #requests: RequestLog;
  readonly #clock: Clock;
  readonly #kept: KeptAnswers;

  constructor(deps: { engine: SearchEngine; requests: RequestLog; clock: Clock; answerBytes?: number }) {
    this.#engine = deps.engine;
    this.#requests = deps.requests;
    this.#clock = deps.clock;
    this.#kept = new KeptAnswers(deps.answerBytes);
  }

  /**
   * The search, answered and metered. An answer of the engine's current edition kept from an
   * earlier asking is given again without the engine; otherwise the engine answers and `render`
   * makes the text (the caller's form of the answer: the HTTP layer's JSON), kept from the
   * search's second asking on. Either way the search gets a record of its own, durable before
   * this resolves.
   */
  async answer(
    principal: Principal,
    request: SearchRequest,
    render: (outcome: SearchOutcome) => string,
  ): Promise<MeteredAnswer> {
    const key = requestKey(request);
    const kept = this.#kept.get(key, this.#engine.edition?.());
    if (kept !== undefined) return { record: await this.#record(principal, request), text: kept.text, kept };
    const outcome = await this.search(principal, request);
    const text = render(outcome);
    // The edition may have moved on while the search was metered: then the answer is not kept.
    return { record: outcome.record, text, kept: this.#kept.keep(key, outcome.edition, text) };
  }

  /** Bytes of answers kept now (tests). */
  get keptBytes(): number {
    return this.#kept.bytes;
  }

  /** The search answered by the engine, and metered. */
  async search(principal: Principal, input: SearchRequest): Promise<SearchOutcome> {
    const page = await this.#engine.search({ ...input, plan: planQuery(input.query) });
    const record = await this.#record(principal, input);
    return {
      record,
      edition: page.edition,
      total: page.total,
      hits: page.hits,
    };
  }

  /** The record a search answered without the engine gets: the same, durable, as search() makes. */
  meter(principal: Principal, input: SearchRequest): Promise<RequestRecord> {
    return this.#record(principal, input);
  }

  async #record(principal: Principal, input: SearchRequest): Promise<RequestRecord> {
    const key = input.idempotencyKey;
    const record: RequestRecord = {
      // Time-ordered (RFC 9562 version 7): the request log's primary key then grows at its end,
      // where a random id lands on a random page of it: a commit dirties, logs and syncs fewer
      // pages (the figures: docs/runs/performance.md, Run M). With an Idempotency-Key, the id
      // is the key's (per user): a retry's record meets the first one's and is not stored.
      id: key === undefined ? randomUUIDv7() : keyedRecordId(principal.userId, key),
      userId: principal.userId,
      requestMade: `search_schools:${input.query}`,
      timeMade: this.#clock.now(),
      cost: SEARCH_COST,
      search: recordedSearch(input),
      // Which key and page it came through: the owner's history and usage split by them.
      ...(principal.kind === 'key' && { keyId: principal.tokenId }),
      ...(principal.origin !== undefined && { origin: principal.origin }),
    };
    // Durable before the response exists: a tid the client sees is always in its history. A
    // token taken as the store remembered it must still hold when the record commits.
    try {
      await this.#requests.append(record, principal.remembered ? principal.tokenId : undefined);
      return record;
    } catch (error) {
      if (!(error instanceof RecordExistsError)) throw error;
      // A retry: the first search's record, stored (and counted) once, is this one's too.
      const first = await this.#requests.recordOf(principal.userId, record.id);
      if (first === null) throw error;
      if (!sameSearch(first, record)) throw new IdempotencyKeyReusedError();
      return first;
    }
  }
}

/** Namespace of the ids made from Idempotency-Keys (a random v4 UUID, fixed forever). */
const IDEMPOTENCY_NAMESPACE = '3f0b9d64-2c1e-4a7b-9e55-8d0c6f2a1b47';

/** The record id a user's Idempotency-Key stands for (RFC 9562 version 5: the same key, the same id). */
export function keyedRecordId(userId: string, key: string): string {
  return uuidV5(`${userId}\n${key}`, IDEMPOTENCY_NAMESPACE);
}

/** Whether a stored record is of the same search as a new one (its retry): the same words, filters and page. */
function sameSearch(stored: RequestRecord, fresh: RequestRecord): boolean {
  const a = stored.search;
  const b = fresh.search;
  const list = (v: readonly string[] | undefined) => v?.join(',') ?? '';
  return (
    stored.requestMade === fresh.requestMade &&
    a?.stateCode === b?.stateCode &&
    a?.offset === b?.offset &&
    a?.limit === b?.limit &&
    list(a?.level) === list(b?.level) &&
    list(a?.type) === list(b?.type) &&
    a?.near?.latitude === b?.near?.latitude &&
    a?.near?.longitude === b?.near?.longitude &&
    a?.radiusKm === b?.radiusKm
  );
}

/** The search's parameters besides its words, for its record: only those it gave. */
function recordedSearch(input: SearchRequest): RecordedSearch {
  return {
    ...(input.stateCode !== undefined && { stateCode: input.stateCode }),
    offset: input.offset,
    limit: input.limit,
    ...(input.level !== undefined && { level: input.level }),
    ...(input.type !== undefined && { type: input.type }),
    ...(input.near !== undefined && { near: { latitude: input.near.latitude, longitude: input.near.longitude } }),
    ...(input.radiusKm !== undefined && { radiusKm: input.radiusKm }),
  };
}
