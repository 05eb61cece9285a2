// MONGODB_SEARCH=atlas: Atlas Search finds the candidates with the rules written in its own
// operators (atlas-pipeline.ts: fuzzy, autocomplete, synonyms, count), and the rules rank them
// (src/domain/search/rank-candidates.ts) from the stored source, without a second read of any document.
//
// Per query: each word's count in scope (cached per catalog version and scope); the words no
// school has are left out; the schools in scope holding every remaining word are asked for (the
// best CANDIDATE_LIMIT by Atlas's score — prominence, or with `near` the proximity, ordering
// equals — and Atlas's total count); when there are none, the most common word is dropped and
// the question asked again, as soft matching does. With a radius, the schools of Atlas's wider
// circle pass the rules' exact check on the server (scope.ts) before they are counted or read.
//
// Atlas answers a query on an index that does not exist with nothing, not an error (the $search
// docs, `index`), and the readiness check that would say so is shared by a second's searches
// (candidates.ts). So every "nothing" Atlas gives is confirmed before it is believed: a count of
// 0 before it is cached (a word cached as unknown would be left out until the catalog changes),
// and no candidate for one word Atlas counted in some school; the "nothing"s of one search (and
// of searches that ran together) share one check started after their reads (candidates.ts,
// confirmed). While the index is missing that is a 503 (StoreUnavailableError), as readiness
// says, instead of an empty page.
import type { Document } from 'mongodb';
import type { EnginePage, EngineQuery } from '../../domain/search/engine.port.ts';
import { inScope } from '../../domain/search/filters.ts';
import { mostCommon, pageOf, rankCandidates, withKnownWords } from '../../domain/search/rank-candidates.ts';
import {
  atlasCandidatesPipeline,
  atlasCount,
  atlasCountPipeline,
  atlasTotalPipeline,
  atlasWordTotalPipeline,
} from './atlas-pipeline.ts';
import {
  CandidateEngine,
  toAnalysed,
  type Candidate,
  type CandidateEngineOptions,
  type SearchSource,
} from './candidates.ts';
import { countKey, keepsNothing } from './scope.ts';

type AtlasCandidate = Candidate & { meta?: { count?: { total?: number } } };

/**
 * How long a count from Atlas Search is trusted. mongot's index follows the collection on its
 * own, eventually (no read concern or session can wait for it), so a count may be older than
 * the version it is cached under: once the index has caught up, such a count (a new school's
 * word counted 0, dropped as unknown) lasts at most this long, not until the next import.
 */
export const MONGOT_COUNT_TTL_MS = 10_000;

export class MongoAtlasEngine extends CandidateEngine {
  readonly #index: string;

  constructor(source: SearchSource, index: string, options: CandidateEngineOptions = {}) {
    super(source, { countTtlMs: MONGOT_COUNT_TTL_MS, ...options });
    this.#index = index;
  }

  protected async answer(query: EngineQuery): Promise<EnginePage> {
    if (keepsNothing(query)) return { total: 0, hits: [] };
    const version = await this.cache.version();
    const typed = query.plan;
    const key = countKey(query);
    const counts = await Promise.all(
      typed.words.map((w) =>
        this.cache.get(version, `count ${key} ${w.text} ${w.last ? 'last' : ''}`, () =>
          this.#countOf(atlasCountPipeline(this.#index, w, query, this.limit + 1)),
        ),
      ),
    );
    const words = withKnownWords(typed, counts);
    if (!words) return { total: 0, hits: [] };
    const { plan } = words;
    let found = words.found;
    // A word's count past the threshold, exactly (candidates.ts, exactFound).
    const exactOf = (w: number) => {
      const word = plan.words[w]!;
      return this.cache.get(version, `exact ${key} ${word.text} ${word.last ? 'last' : ''}`, () =>
        this.#countOf(atlasWordTotalPipeline(this.#index, word, query)),
      );
    };
    let exactly = false;
    let required = plan.words.map((_, w) => w);
    for (;;) {
      const mark = this.confirmationMark();
      const docs = (await this.source.aggregate(
        atlasCandidatesPipeline(this.#index, plan, required, query, this.limit),
      )) as AtlasCandidate[];
      // One word Atlas counted, and no school has it: the index is gone, or going.
      if (docs.length === 0 && required.length === 1) await this.#confirmed(0, mark);
      if (docs.length > 0 || required.length === 1) {
        // Checked again by the rules' own test: the server's sine may differ from ours in its last bit.
        const entries = docs.map(toAnalysed).filter((e) => inScope(e.school, query));
        const options = { typos: true, near: query.near } as const;
        let ranking = rankCandidates(plan, entries, found, options);
        // Words were dropped here, among the candidates: by exact counts where capped ones tied.
        if (!exactly && ranking.required.length < required.length) {
          const exact = await this.exactFound(required, found, exactOf);
          if (exact !== found) ranking = rankCandidates(plan, entries, exact, options);
        }
        const { results } = ranking;
        const page = (total: number) => pageOf(results, total, plan, typed, query.offset, query.limit);
        // Fewer than the limit: every match was read.
        if (docs.length < this.limit) return page(results.length);
        const total = Number(docs[0]?.meta?.count?.total ?? 0);
        // Atlas's count is exact, but with a radius it counts its wider circle: counted again.
        if (query.radiusKm === undefined) return page(Math.max(results.length, total));
        const words = [...required].sort((a, b) => a - b);
        const exact = await this.cache.get(
          version,
          `total ${key} ${words.map((w) => `${plan.words[w]!.text}${plan.words[w]!.last ? '$' : ''}`).join(' ')}`,
          () => this.#countOf(atlasTotalPipeline(this.#index, plan, required, query)),
        );
        return page(Math.max(results.length, exact));
      }
      // No school holds them all: drop the most common word (the later of equals) and ask again,
      // by exact counts where capped ones would tie (once: the counts of every word then).
      if (!exactly) {
        found = await this.exactFound(required, found, exactOf);
        exactly = true;
      }
      const drop = mostCommon(required, found);
      required = required.filter((w) => w !== drop);
    }
  }

  /**
   * The count a counting pipeline gives, confirmed when it is 0. The mark is taken before the
   * read: a check started after it confirms the read's "nothing"; the words of one search are
   * counted at once, so their marks are equal and one check serves them all.
   */
  async #countOf(pipeline: Document[]): Promise<number> {
    const mark = this.confirmationMark();
    const [row] = await this.source.aggregate(pipeline);
    return this.#confirmed(atlasCount(row), mark);
  }

  /**
   * The count, once the index is known to exist when it is 0 (throws StoreUnavailableError if
   * not): by a readiness check started after `mark`, one for every 0 of the search.
   */
  async #confirmed(count: number, mark: number): Promise<number> {
    if (count === 0) await this.confirmed(mark);
    return count;
  }
}
