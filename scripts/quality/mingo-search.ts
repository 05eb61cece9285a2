// FerretDB has no $text and no Atlas Search, and no MongoDB server runs here. This stands in for
// the server under the $text engine (src/stores/mongodb/text.engine.ts): it runs the engine's
// own pipelines with mingo, a JavaScript implementation of MongoDB's query language, over the
// school documents exactly as the adapter writes them (read back from FerretDB, or made by the
// adapter's toDocument from the catalog). Only $text is stood in for: the documents holding its one
// token (what a text index with default_language 'none' gives for an already-folded token).
// It checks the engine and its pipelines; it is not a MongoDB server.
import { Aggregator } from 'mingo';
import type { Document } from 'mongodb';
import type { Store } from '../../src/domain/ports.ts';
import type { SchoolDocument } from '../../src/stores/mongodb/documents.ts';
import { toDocument } from '../../src/stores/mongodb/school.store.ts';
import { MongoStore } from '../../src/stores/mongodb/store.ts';
import type { CandidateEngineOptions, SearchSource } from '../../src/stores/mongodb/candidates.ts';
import { MongoTextEngine } from '../../src/stores/mongodb/text.engine.ts';
import type { ManagedEngine } from '../../src/services.ts';
import type { CatalogSchool } from '../../src/domain/search/engine.ts';

export interface MingoSource extends SearchSource {
  /** Per pipeline run, the documents its $text stage handed on: what a server would have examined. */
  readonly examined: number[];
  /** The pipelines run, in order. */
  readonly pipelines: Document[][];
}

/** The documents the adapter wrote (MongoDB store) or would write (any other store) for the catalog. */
async function documentsOf(store: Store): Promise<SchoolDocument[]> {
  if (store instanceof MongoStore) return store.db.collection<SchoolDocument>('schools').find().toArray();
  let schools: CatalogSchool[] = [];
  for await (const chunk of store.schools.readCatalog()) {
    if (chunk.kind === 'restart') schools = [];
    else if (chunk.kind === 'schools') schools.push(...chunk.schools);
  }
  return schools.map((s) => toDocument({ ...s, aliases: [...s.aliases] }));
}

export function mingoSource(store: Store): MingoSource {
  return mingoSourceOf(
    () => documentsOf(store),
    () => store.schools.catalogVersion(),
  );
}

/** The stand-in over these documents. */
export function mingoSourceOf(
  documents: () => Promise<SchoolDocument[]>,
  catalogVersion: () => Promise<string> = async () => '1',
): MingoSource {
  const examined: number[] = [];
  const pipelines: Document[][] = [];
  return {
    examined,
    pipelines,
    catalogVersion,
    ready: async () => undefined,
    async aggregate(pipeline) {
      pipelines.push(pipeline);
      const [first, ...rest] = pipeline;
      const match = first?.['$match'] as Record<string, unknown> | undefined;
      const text = (match?.['$text'] as { $search?: unknown } | undefined)?.$search;
      if (!match || typeof text !== 'string' || /\s/.test(text))
        throw new Error('every search pipeline starts with $text on one token: update this stand-in');
      const { $text: _text, ...filter } = match;
      const docs = (await documents()).filter((d) => d.tokens.includes(text));
      // A server's $text stage stops handing documents on when a $limit right after it is reached.
      const limit = (rest[0]?.['$limit'] as number | undefined) ?? Infinity;
      examined.push(Object.keys(filter).length === 0 ? Math.min(limit, docs.length) : docs.length);
      return new Aggregator([{ $match: filter }, ...rest]).run(docs) as Document[];
    },
  };
}

/** The $text engine on the mingo stand-in, as a test app's engine. */
export function mingoTextEngine(options: CandidateEngineOptions = {}): (store: Store) => ManagedEngine {
  return (store) => {
    const engine = new MongoTextEngine(mingoSource(store), { versionTtlMs: 0, ...options });
    return {
      search: (q) => engine.search(q),
      ready: () => engine.ready(),
      start: async () => undefined,
      refresh: async () => false,
      close: () => undefined,
    };
  };
}
