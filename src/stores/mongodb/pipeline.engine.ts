// The MongoDB pipelines as a search engine (MONGODB_SEARCH=text or atlas): MongoDB's own text
// index or Atlas Search finds and orders the schools. They keep their own, older semantics
// (texts.ts): the in-process engine (the default) has the search core's on MongoDB too.
import type { EnginePage, EngineQuery, SearchEngine } from '../../domain/search/engine.ts';
import type { MongoSchoolStore, PipelineMode } from './school.store.ts';
import { coveredLength, queryTerms, similarity } from './texts.ts';

export class MongoPipelineEngine implements SearchEngine {
  readonly #schools: MongoSchoolStore;
  readonly #mode: PipelineMode;

  constructor(schools: MongoSchoolStore, mode: PipelineMode) {
    this.#schools = schools;
    this.#mode = mode;
  }

  ready(): Promise<void> {
    return this.#schools.searchIndexReady(this.#mode);
  }

  async search(query: EngineQuery): Promise<EnginePage> {
    const terms = queryTerms(query.plan.words.map((w) => w.text).join(' '));
    const covered = coveredLength(terms);
    const page = await this.#schools.searchPipeline({ terms, coveredLength: covered, state: query.state, offset: query.offset, limit: query.limit }, this.#mode);
    return {
      total: page.total,
      hits: page.hits.map(({ matchedLength, ...school }) => ({ school, score: similarity(covered, matchedLength) })),
    };
  }
}
