// The search semantics evaluated literally: every school, every term, every word, then a full
// sort (src/domain/search/rank-candidates.ts). Slow (it reads the whole catalog for every query) and
// obviously right; the property tests hold the fast engines to it, and the quality benchmark can
// run it. `typos: false` is what an engine without typo matching (MongoDB's $text) must equal.
import type { CatalogSchool } from '../domain/catalog/catalog.ports.ts';
import type { EnginePage, EngineQuery, SearchEngine } from '../domain/search/engine.port.ts';
import { inScope } from '../domain/search/filters.ts';
import {
  analyse,
  bestCredit,
  pageOf,
  rankCandidates,
  withKnownWords,
  type Analysed,
  type RankOptions,
} from '../domain/search/rank-candidates.ts';

export class ReferenceEngine implements SearchEngine {
  readonly #entries: readonly Analysed[];
  readonly #options: RankOptions;

  constructor(catalog: readonly CatalogSchool[], options: RankOptions = { typos: true }) {
    this.#entries = catalog.map(analyse);
    this.#options = options;
  }

  async search(query: EngineQuery): Promise<EnginePage> {
    const entries = this.#entries.filter((e) => inScope(e.school, query));
    const typed = query.plan;
    const counts = typed.words.map((word) => entries.filter((e) => bestCredit(word, e, this.#options) > 0).length);
    const known = withKnownWords(typed, counts);
    if (!known) return { total: 0, hits: [] };
    const { plan, found } = known;
    const { results } = rankCandidates(plan, entries, found, { ...this.#options, near: query.near });
    return pageOf(results, results.length, plan, typed, query.offset, query.limit);
  }
}
