// FerretDB has no $text and no Atlas Search, and no MongoDB server runs here. This stands in for
// the server under the $text engine (src/search/mongodb/text.engine.ts): it runs the engine's
// own pipelines with mingo, a JavaScript implementation of MongoDB's query language, over the
// school documents exactly as the adapter writes them (read back from FerretDB, or made by the
// adapter's toDocument from the catalog). Only $text is stood in for: the documents holding any of
// its terms (what a text index with default_language 'none' gives for already-folded terms), in
// the order a server's OR of one index scan per term hands them on (the terms sorted, as the
// server sorts them, each document once). It checks the engine and its pipelines; it is not a
// MongoDB server.
import { Aggregator } from 'mingo';
import type { Document } from 'mongodb';
import type { Store } from '../../src/domain/store.port.ts';
import { toDocument } from '../../src/mongodb-shared/school-document.ts';
import type { SearchedSchool } from '../../src/search/mongodb/search-fields.ts';
import { SEARCH_EXTENSION } from '../../src/search/mongodb/catalog-extension.ts';
import { MongoStore } from '../../src/stores/mongodb/store.ts';
import type { CandidateEngineOptions, SearchSource } from '../../src/search/mongodb/candidates.ts';
import { MongoTextEngine } from '../../src/search/mongodb/text.engine.ts';
import type { ManagedEngine } from '../../src/search/managed.engine.ts';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';

export interface MingoSource extends SearchSource {
  /** Per pipeline run, the documents its $text stage handed on: what a server would have examined. */
  readonly examined: number[];
  /** The pipelines run, in order. */
  readonly pipelines: Document[][];
}

/** The documents the adapter wrote (MongoDB store) or would write (any other store) for the catalog. */
async function documentsOf(store: Store): Promise<SearchedSchool[]> {
  if (store instanceof MongoStore) return store.db.collection<SearchedSchool>('schools').find().toArray();
  let schools: CatalogSchool[] = [];
  for await (const chunk of store.schools.readCatalog()) {
    if (chunk.kind === 'restart') schools = [];
    else if (chunk.kind === 'schools') schools.push(...chunk.schools);
  }
  return schools.map((s) => toDocument({ ...s, aliases: [...s.aliases] }, SEARCH_EXTENSION));
}

export function mingoSource(store: Store): MingoSource {
  return mingoSourceOf(
    () => documentsOf(store),
    () => store.schools.catalogVersion(),
  );
}

/** The stand-in over these documents. */
export function mingoSourceOf(
  documents: () => Promise<SearchedSchool[]>,
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
      const ids = (match?.['_id'] as { $in?: unknown } | undefined)?.$in;
      if (Array.isArray(ids)) {
        // Schools by id (found before by a $text look-up): the _id index hands on just those.
        const docs = (await documents()).filter((d) => ids.includes(d._id));
        examined.push(docs.length);
        return new Aggregator(rest).run(docs) as Document[];
      }
      const text = (match?.['$text'] as { $search?: unknown } | undefined)?.$search;
      if (!match || typeof text !== 'string' || text.trim() === '')
        throw new Error('every search pipeline starts with $text or _id $in: update this stand-in');
      const { $text: _text, ...filter } = match;
      const docs = ordered(await documents(), text.split(/\s+/));
      // A server's $text stage stops handing documents on when a $limit right after it is reached.
      const limit = (rest[0]?.['$limit'] as number | undefined) ?? Infinity;
      examined.push(Object.keys(filter).length === 0 ? Math.min(limit, docs.length) : docs.length);
      return new Aggregator([{ $match: filter }, ...rest]).run(docs) as Document[];
    },
  };
}

/** The documents holding any of the terms: term after term in sorted order, each document once (at its first term). */
function ordered(documents: readonly SearchedSchool[], terms: readonly string[]): SearchedSchool[] {
  if (terms.length === 1) return documents.filter((d) => d.tokens.includes(terms[0]!));
  const rank = new Map([...new Set(terms)].sort().map((t, i) => [t, i]));
  const held: { doc: SearchedSchool; at: number }[] = [];
  for (const doc of documents) {
    let at = Infinity;
    for (const t of doc.tokens) at = Math.min(at, rank.get(t) ?? Infinity);
    if (at !== Infinity) held.push({ doc, at });
  }
  // Stable: within a term, the documents keep their order (the index's, for this stand-in).
  return held.sort((a, b) => a.at - b.at).map((h) => h.doc);
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
