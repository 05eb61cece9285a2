// The MongoDB pipelines (MONGODB_SEARCH=text): examples and a property test against their
// reference, on a MongoDB server when the run has one (MONGODB_URI: the pipeline itself), and on
// FerretDB with the pipeline run by mingo over the documents the adapter wrote there.
import { afterEach, beforeEach, describe, inject } from 'vitest';
import { FERRETDB_MISSING as FERRETDB_NOT_INSTALLED } from '../support/ferretdb.ts';
import { searchWithMingo } from '../support/mingo-search.ts';
import { dropAndClose, flavorOf, mongoUriFromEnv, openFreshMongoStore, type Flavor } from '../support/mongodb.ts';
import { pipelineExamples } from './pipeline/pipeline.examples.ts';
import { pipelineProperty } from './pipeline/pipeline.property.ts';
import type { PipelineFixture, PipelineTarget } from './pipeline/pipeline.target.ts';

function target(name: string, uri: string, flavor: Flavor): PipelineTarget {
  return {
    name,
    async create() {
      const store = await openFreshMongoStore(uri, flavor);
      return {
        store,
        search: (query) => (flavor === 'ferretdb' ? searchWithMingo(store, query) : store.schools.searchPipeline(query, { kind: 'text' })),
        dispose: () => dropAndClose(store),
      };
    },
  };
}

function suite(t: PipelineTarget | { name: string; unavailable: string }): void {
  if ('unavailable' in t) {
    console.warn(`${t.name} — skipped: ${t.unavailable}`);
    describe.skip(`${t.name} — skipped: ${t.unavailable}`, () => undefined);
    return;
  }
  describe(t.name, () => {
    let fixture: PipelineFixture | undefined;
    beforeEach(async () => {
      fixture = await t.create();
    });
    afterEach(async () => {
      await fixture?.dispose();
      fixture = undefined;
    });
    pipelineExamples(() => fixture!);
    pipelineProperty(t);
  });
}

const uri = mongoUriFromEnv();
const ferretdb = inject('ferretdbUri');
const flavor = uri ? await flavorOf(uri) : undefined;

suite(
  uri && flavor === 'mongodb'
    ? target('$text pipeline on MongoDB at MONGODB_URI', uri, 'mongodb')
    : { name: '$text pipeline on MongoDB', unavailable: 'MONGODB_URI names no MongoDB server; the GitHub workflow runs this on MongoDB 8' },
);
suite(
  ferretdb
    ? target('$text pipeline (documents on ferretdb v1.24, pipeline run by mingo)', ferretdb, 'ferretdb')
    : { name: '$text pipeline (mingo)', unavailable: FERRETDB_NOT_INSTALLED },
);
