// One index as a search reads it: its data and the objects that answer from it (scope, word
// expansions and sets, grading, the walk), with their scratch. An index searched alone is one
// segment; after a small import it is two (memory-index.ts): the last full build, less the
// schools the import changed (its live documents), and a small index of those schools as they
// are now. A segment's caches (expansions, word sets) hold for as long as its data does, so the
// base keeps them from one delta to the next.
import { MAX_QUERY_WORDS } from '../../domain/search/query.ts';
import type { StaticKey } from '../../domain/search/ranking-rules.ts';
import { nameSortKey } from '../../domain/shared/normalize.ts';
import { wordsFor } from './bitset.ts';
import { hash32 } from './build-rows.ts';
import { CatalogView } from './catalog-view.ts';
import { Expander } from './expansion.ts';
import { Grader } from './grading.ts';
import type { IndexData } from './index-data.ts';
import { ScopeBits } from './scope-bits.ts';
import { firstAtLeast } from './sorted.ts';
import { TopKWalk } from './top-k-walk.ts';
import { WordSets } from './word-sets.ts';

export class Segment {
  readonly d: IndexData;
  readonly catalog: CatalogView;
  readonly scope: ScopeBits;
  readonly expander: Expander;
  /** One cache of the index: soft matching and the walk both read it. */
  readonly sets: WordSets;
  readonly grader: Grader;
  readonly walk: TopKWalk;
  /** Scratch of one search: each known word's documents in scope, their AND, the scope less the replaced documents. */
  readonly inScope: Uint32Array[];
  readonly matches: Uint32Array;
  readonly liveScope: Uint32Array;

  constructor(data: IndexData) {
    this.d = data;
    this.catalog = new CatalogView(data);
    this.sets = new WordSets(data);
    this.scope = new ScopeBits(data);
    this.expander = new Expander(data);
    this.grader = new Grader(data);
    this.walk = new TopKWalk(data, this.sets, this.grader);
    const words = wordsFor(data.docCount);
    this.inScope = Array.from({ length: MAX_QUERY_WORDS }, () => new Uint32Array(words));
    this.matches = new Uint32Array(words);
    this.liveScope = new Uint32Array(words);
  }

  /** Where the document stands in the static order (ranking-rules.ts, compareStatic), to compare it with another segment's. */
  staticKey(doc: number): StaticKey {
    return {
      prominence: this.d.docProminence[doc]!,
      sortKey: nameSortKey(this.catalog.name(doc)),
      id: this.catalog.id(doc),
    };
  }

  /** The document of the school `id`, or -1. */
  docOf(id: string): number {
    const { idHash, idDoc } = this.d;
    const hash = hash32(id);
    for (let at = firstAtLeast(idHash, hash); at < idHash.length && idHash[at] === hash; at++)
      if (this.catalog.id(idDoc[at]!) === id) return idDoc[at]!;
    return -1;
  }
}
