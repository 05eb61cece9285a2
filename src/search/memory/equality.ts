// The schools a query names (ranking-rules.ts, equality: they come before every other match):
// those whose name, a distinctive part of it, the name without "School", the name in reading
// order (a French article first) or an alternative name
// has the query's equality key (analysis.ts). The index keeps each school's keys as 32-bit
// hashes, sorted (build.ts), so a query's are found by one binary search whatever the catalog's
// size, and each found is checked against the school's text, since hashes collide.
import { canonicalKey, keyWithoutSchool, readingOrderKey } from '../../domain/search/analysis.ts';
import { compareDistance } from '../../domain/search/filters.ts';
import { aliasNamedBy, beginsWith, distinctiveKeys, namedAsTyped } from '../../domain/search/matching.ts';
import { compareLiteral, type Equality } from '../../domain/search/ranking-rules.ts';
import type { GeoPoint } from '../../domain/catalog/geo.ts';
import { has } from './bitset.ts';
import { hash32 } from './build.ts';
import type { CatalogView } from './catalog-view.ts';
import { docDistance } from './geo-grid.ts';
import type { IndexData } from './index-data.ts';
import { firstAtLeast } from './sorted.ts';

export interface EqualDoc {
  readonly doc: number;
  /** 2: by its name (or a form of it); 1: by an alternative name. */
  readonly equality: Equality;
  /** Named (2) as typed, word for word (matching.ts, namedAsTyped). */
  readonly literal: boolean;
  /** Named by a name that begins with the query's leading small words (rank-candidates.ts, Ranked.leading). */
  readonly leading: boolean;
}

/**
 * Documents in scope (undefined: all) whose name (2) or an alternative name (1) has the equality
 * key `canonical`, best first: among the schools the query names alike, the nearer (with
 * `near`), then those named as `typed` (the query's words), then those whose name begins with
 * `lead` (the small words it begins with), then the static order (ranking-rules.ts, steps 1, 6,
 * 7). With a `lead`, an alternative name names only if it begins with it (matching.ts, aliasNamedBy).
 */
export function equalDocs(
  d: IndexData,
  catalog: CatalogView,
  canonical: string,
  typed: readonly string[],
  lead: readonly string[],
  scope: Uint32Array | undefined,
  near: GeoPoint | undefined,
): EqualDoc[] {
  if (!canonical) return [];
  const hash = hash32(canonical);
  const found = new Map<number, Equality>();
  for (let at = firstAtLeast(d.eqHash, hash); at < d.eqHash.length && d.eqHash[at] === hash; at++) {
    const doc = d.eqDoc[at]!;
    if (scope !== undefined && !has(scope, doc)) continue;
    const field = d.eqField[at]!;
    const equality: Equality = field >= 2 ? 2 : 1;
    // A hash collision is not equality: check the text itself.
    const real =
      field === 2
        ? canonicalKey(catalog.name(doc)) === canonical
        : field === 3
          ? distinctiveKeys(catalog.name(doc)).includes(canonical)
          : field === 4
            ? keyWithoutSchool(catalog.name(doc)) === canonical
            : field === 5
              ? readingOrderKey(catalog.name(doc)) === canonical
              : catalog.aliases(doc).some((a) => canonicalKey(a) === canonical && aliasNamedBy(lead, a));
    if (real && equality > (found.get(doc) ?? 0)) found.set(doc, equality);
  }
  return [...found]
    .map(([doc, equality]) => ({
      doc,
      equality,
      distance: near === undefined ? undefined : docDistance(d, doc, near),
      literal: equality === 2 && namedAsTyped(typed, catalog.name(doc), d.docProminence[doc]! > 0),
      leading: equality === 2 ? beginsWith(lead, catalog.name(doc)) : lead.length > 0,
    }))
    .sort(
      (a, b) =>
        b.equality - a.equality ||
        compareDistance(a.distance, b.distance) ||
        compareLiteral(a.literal, b.literal) ||
        compareLiteral(a.leading, b.leading) ||
        a.doc - b.doc,
    )
    .map(({ doc, equality, literal, leading }) => ({ doc, equality, literal, leading }));
}
