// MONGODB_SEARCH=text: MongoDB's own text index finds the candidates, the search rules rank them
// (src/domain/search/rank.ts), so results mean what the in-process engine's mean, without typos:
// the text index matches whole tokens only, and a token per typo would multiply it by the
// alphabet. The in-process engine (MONGODB_SEARCH=memory, the default) and Atlas Search have them.
//
// Per query: each word's count of schools in scope (one token, the filters in the same $match,
// counted up to the candidate limit, cached per catalog version and scope); the words no school
// has are left out; the rarest word's schools are read (one $text look-up of one token, at most
// CANDIDATE_LIMIT documents) and ranked here. When even the rarest word is in more schools than
// that, the page is the best of the first CANDIDATE_LIMIT the index yields — with `near`, of the
// CANDIDATE_LIMIT nearest, as the order among equals is by distance — and the total is counted
// once per catalog version and scope (docs/search.md says why).
import type { Document } from 'mongodb';
import type { EnginePage, EngineQuery } from '../../domain/search/engine.ts';
import { inScope } from '../../domain/search/filters.ts';
import { pageOf, rankCandidates, withKnownWords } from '../../domain/search/rank.ts';
import { CandidateEngine, toAnalysed, type Candidate } from './candidates.ts';
import { keepsNothing, scopeKey, scopeMatch } from './scope.ts';
import { tokenOf } from './search.fields.ts';
import { candidatesPipeline, countPipeline, nearestPipeline, totalPipeline } from './text.pipeline.ts';

export class MongoTextEngine extends CandidateEngine {
  protected async answer(query: EngineQuery): Promise<EnginePage> {
    if (keepsNothing(query)) return { total: 0, hits: [] };
    const version = await this.cache.version();
    const typed = query.plan;
    const scope = scopeMatch(query);
    const key = scopeKey(query);
    const tokens = typed.words.map((w) => tokenOf(w.text, query.state));
    const counts = await Promise.all(
      tokens.map((t) =>
        this.cache.get(version, `count ${t.word} ${key}`, () => this.#count(countPipeline(t, scope, this.limit + 1))),
      ),
    );
    const words = withKnownWords(typed, counts);
    if (!words) return { total: 0, hits: [] };
    const { plan, known, found } = words;
    const token = (w: number) => tokens[known[w]!]!;
    // The rarest word, the earliest of equals: soft matching drops the most common word first
    // (the later of equals), so this one is never dropped and every match holds it.
    let rarest = 0;
    for (let w = 1; w < plan.words.length; w++) if (found(w) < found(rarest)) rarest = w;
    const complete = found(rarest) <= this.limit;
    // Complete, the candidates are every match, whatever their order; cut off, the order among
    // equals decides which ones the page needs: with `near`, the nearest.
    const pipeline =
      complete || query.near === undefined
        ? candidatesPipeline(token(rarest), scope, this.limit)
        : nearestPipeline(token(rarest), scope, query.near, this.limit);
    const docs = (await this.source.aggregate(pipeline)) as Candidate[];
    // The server kept what the scope keeps; checked again by the rules' own test, so that a page
    // never holds a school the reference would not (the server's sine may differ in its last bit).
    const entries = docs.map(toAnalysed).filter((e) => inScope(e.school, query));
    const { results, required } = rankCandidates(plan, entries, found, { typos: false, near: query.near });
    if (complete) return pageOf(results, results.length, plan, typed, query.offset, query.limit);
    const others = required
      .filter((w) => w !== rarest)
      .map((w) => token(w).word)
      .sort();
    const counted = await this.cache.get(version, `total ${token(rarest).word} ${others.join(' ')} ${key}`, () =>
      this.#count(totalPipeline(token(rarest), others, scope)),
    );
    return pageOf(results, Math.max(results.length, counted), plan, typed, query.offset, query.limit);
  }

  async #count(pipeline: Document[]): Promise<number> {
    const [row] = await this.source.aggregate(pipeline);
    return Number(row?.['n'] ?? 0);
  }
}
