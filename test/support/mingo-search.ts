// FerretDB has no $text, so the adapter's search pipeline cannot run on it. This runs the same
// pipeline (src/stores/mongodb/search.pipeline.ts) with mingo, a JavaScript implementation of
// MongoDB's query language, over the school documents exactly as the adapter wrote them to
// FerretDB. Only $text is stood in for: the documents holding its one word as an indexed gram
// (what a text index with default_language 'none' gives for an already-folded word).
// It checks the pipeline's logic on the real stored documents; it is not a MongoDB server.
import { Aggregator } from 'mingo';
import type { SchoolDocument } from '../../src/stores/mongodb/documents.ts';
import type { PipelinePage } from '../../src/stores/mongodb/school.store.ts';
import { rankAndPage, textCandidates, type PipelineQuery } from '../../src/stores/mongodb/search.pipeline.ts';
import type { MongoStore } from '../../src/stores/mongodb/store.ts';

export async function searchWithMingo(store: MongoStore, query: PipelineQuery): Promise<PipelinePage> {
  if (query.terms.length === 0) return store.schools.searchPipeline(query, { kind: 'text' });
  const docs = await store.db.collection<SchoolDocument>('schools').find().toArray();
  const [match, ...rest] = textCandidates(query);
  const word: unknown = match?.['$match']?.['$text']?.['$search'];
  if (!match || rest.length > 0 || typeof word !== 'string' || /\s/.test(word)) throw new Error('the $text stage changed: update this stand-in');
  const textHits = docs.filter((d) => d.texts.some((t) => t.grams.includes(word)));
  const { $text: _text, ...filter } = match['$match'] as Record<string, unknown>;
  const [result] = new Aggregator([{ $match: filter }, ...rankAndPage(query, false)]).run(textHits) as Array<{
    total: Array<{ n: number }>;
    hits: Array<SchoolDocument & { matchedLength: number }>;
  }>;
  return {
    total: result?.total[0]?.n ?? 0,
    hits: (result?.hits ?? []).map((d) => ({ id: d._id, name: d.name, city: d.city, state: d.state, imageUrl: d.imageUrl, matchedLength: d.matchedLength })),
  };
}
