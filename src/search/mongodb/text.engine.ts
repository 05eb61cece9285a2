// MONGODB_SEARCH=text: MongoDB's own text index finds the candidates, the search rules rank them
// (src/domain/search/rank-candidates.ts), so results mean what the in-process engine's mean, without typos:
// the text index matches whole tokens only, and a token per typo would multiply it by the
// alphabet. The in-process engine (MONGODB_SEARCH=memory, the default) and Atlas Search have them.
//
// Per query: each word's count of schools in scope (one token, the filters in the same $match,
// counted up to the candidate limit, cached per catalog version and scope); the words no school
// has are left out; the rarest word's schools are read (one $text look-up of one token, at most
// CANDIDATE_LIMIT documents) and ranked here. When even the rarest word is in more schools than
// that, soft matching is decided on the server, by exact totals (the schools in scope holding
// the rarest word and every other one still required, counted once per catalog version and
// scope), not among the first schools the index yields; the candidates are then the schools
// holding every required word: all of them when they are at most CANDIDATE_LIMIT (the page is
// exact), else the first CANDIDATE_LIMIT the index yields — with `near`, the CANDIDATE_LIMIT
// nearest, as the order among equals is by distance (docs/search.md says why).
import type { Document } from 'mongodb';
import type { EnginePage, EngineQuery } from '../../domain/search/engine.port.ts';
import { inScope } from '../../domain/search/filters.ts';
import { mostCommon, pageOf, rankCandidates, withKnownWords } from '../../domain/search/rank-candidates.ts';
import { CandidateEngine, toAnalysed, VersionMemo, type Candidate } from './candidates.ts';
import { countKey, keepsNothing, scopeMatch } from './scope.ts';
import { tokenOf } from './search-fields.ts';
import {
  byIdPipeline,
  candidatesPipeline,
  countPipeline,
  exactCountPipeline,
  nearestPipeline,
  sampledPipeline,
  totalPipeline,
} from './text-pipeline.ts';

/** Ids of the few matches of common words kept per instance (about 6 MB at most). */
const MATCH_IDS_KEPT = 100_000;

export class MongoTextEngine extends CandidateEngine {
  readonly #matches = new VersionMemo<readonly string[]>(MATCH_IDS_KEPT, (ids) => ids.length + 1);

  protected async answer(query: EngineQuery): Promise<EnginePage> {
    if (keepsNothing(query)) return { total: 0, hits: [] };
    const version = await this.cache.version();
    const typed = query.plan;
    const scope = scopeMatch(query);
    const key = countKey(query);
    const tokens = typed.words.map((w) => tokenOf(w.text, query.stateCode));
    const counts = await Promise.all(
      tokens.map((t) =>
        this.cache.get(version, `count ${t.word} ${key}`, () => this.#count(countPipeline(t, scope, this.limit + 1))),
      ),
    );
    const words = withKnownWords(typed, counts);
    if (!words) return { total: 0, hits: [] };
    const { plan, known } = words;
    let found = words.found;
    const token = (w: number) => tokens[known[w]!]!;
    // The rarest word, the earliest of equals: soft matching drops the most common word first
    // (the later of equals), so this one is never dropped and every match holds it.
    const rarestBy = (counts: (w: number) => number) => {
      let r = 0;
      for (let w = 1; w < plan.words.length; w++) if (counts(w) < counts(r)) r = w;
      return r;
    };
    let rarest = rarestBy(found);
    const complete = found(rarest) <= this.limit;
    // Counted once per version: shared with the other instances when the store keeps totals, but
    // not within a radius, whose key holds the point, which few searches share (search-totals.ts).
    const counted = (countKey: string, pipeline: () => Document[]) => {
      const count = () => this.#count(pipeline());
      const shared = query.radiusKm === undefined ? this.source.totals : undefined;
      return this.cache.get(version, countKey, () => (shared ? shared.get(version, countKey, count) : count()));
    };
    // A word's count past the cap, exactly (candidates.ts, exactFound).
    const exactOf = (w: number) => counted(`exact ${token(w).word} ${key}`, () => exactCountPipeline(token(w), scope));
    let exactly = false;
    // Whether some school in scope holds every word of `required`, and how many: the rarest
    // word's holders that hold the others, counted on the server (reading every holder once per
    // catalog version and scope), whatever order the index yields them in.
    const others = (required: readonly number[]) =>
      required
        .filter((w) => w !== rarest)
        .map((w) => token(w).word)
        .sort();
    const totalOf = (required: readonly number[]) =>
      counted(`total ${token(rarest).word} ${others(required).join(' ')} ${key}`, () =>
        totalPipeline(token(rarest), others(required), scope),
      );
    let required = plan.words.map((_, w) => w);
    let total = 0;
    if (!complete) {
      // Soft matching as the rules do it (rank-candidates.ts), asked of the whole scope: while no school
      // holds every remaining word, the most common is dropped (never the rarest, the earliest
      // of equals). Complete, the candidates below answer the same question themselves.
      total = await totalOf(required);
      if (total === 0 && required.length > 1) {
        // Every count is capped, so they tie: which word goes is decided by exact ones, as the
        // reference decides it (the rarest, the token read, may then be another word).
        found = await this.exactFound(required, found, exactOf);
        exactly = true;
        rarest = rarestBy(found);
      }
      while (total === 0 && required.length > 1) {
        const drop = mostCommon(required, found);
        required = required.filter((w) => w !== drop);
        total = await totalOf(required);
      }
    }
    const docs = complete
      ? // Every holder of the rarest word: every match, whatever their order.
        await this.#read(candidatesPipeline(token(rarest), scope, this.limit))
      : await this.#matching(version, `${token(rarest).word} ${others(required).join(' ')} ${key}`, total, () => ({
          every: candidatesPipeline(token(rarest), scope, this.limit, others(required)),
          // Too many to read them all: the order among equals decides which ones the page
          // needs (with `near` the nearest, a sort of every holder on the server), else those
          // among the first holders the index yields, as many as a look-up reads.
          some:
            query.near === undefined
              ? sampledPipeline(token(rarest), scope, this.limit, others(required))
              : nearestPipeline(token(rarest), scope, query.near, this.limit, others(required)),
        }));
    // The server kept what the scope keeps; checked again by the rules' own test, so that a page
    // never holds a school the reference would not (the server's sine may differ in its last bit).
    const entries = docs.map(toAnalysed).filter((e) => inScope(e.school, query));
    const options = { typos: false, near: query.near } as const;
    let ranking = rankCandidates(plan, entries, found, options);
    // Words were dropped here, among the candidates: by exact counts where capped ones tied.
    if (!exactly && ranking.required.length < plan.words.length) {
      const exact = await this.exactFound(
        plan.words.map((_, w) => w),
        found,
        exactOf,
      );
      if (exact !== found) ranking = rankCandidates(plan, entries, exact, options);
    }
    const { results } = ranking;
    return pageOf(
      results,
      complete ? results.length : Math.max(results.length, total),
      plan,
      typed,
      query.offset,
      query.limit,
    );
  }

  /**
   * The candidates of a query whose every word is in more schools than a look-up reads, `total`
   * of them holding every required word. At most a look-up's worth: every one, read the first
   * time by examining the rarest word's holders (as its total did), then by id for the rest of
   * the catalog version, so the page is exact and a query examines at most that many again.
   * More: `some` of them, a look-up's worth examined.
   */
  async #matching(
    version: string,
    key: string,
    total: number,
    pipelines: () => { every: Document[]; some: Document[] },
  ): Promise<Candidate[]> {
    if (total > this.limit) return this.#read(pipelines().some);
    const ids = this.#matches.get(version, key);
    if (ids) return this.#read(byIdPipeline(ids));
    const docs = await this.#read(pipelines().every);
    this.#matches.set(
      version,
      key,
      docs.map((d) => d._id),
      this.cache.latest,
    );
    return docs;
  }

  async #read(pipeline: Document[]): Promise<Candidate[]> {
    return (await this.source.aggregate(pipeline)) as Candidate[];
  }

  async #count(pipeline: Document[]): Promise<number> {
    const [row] = await this.source.aggregate(pipeline);
    return Number(row?.['n'] ?? 0);
  }
}
