// Where the MongoDB pipeline tests run: a MongoDB server (the pipeline itself), or FerretDB with
// the pipeline evaluated by mingo over the documents the adapter wrote (FerretDB has no $text).
import type { MongoStore } from '../../../src/stores/mongodb/store.ts';
import type { PipelinePage } from '../../../src/stores/mongodb/school.store.ts';
import type { PipelineQuery } from '../../../src/stores/mongodb/search.pipeline.ts';

export interface PipelineFixture {
  readonly store: MongoStore;
  search(query: PipelineQuery): Promise<PipelinePage>;
  dispose(): Promise<void>;
}

export interface PipelineTarget {
  readonly name: string;
  create(): Promise<PipelineFixture>;
}
