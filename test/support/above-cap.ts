// What the MongoDB engines are held to past their look-up's cap (text-engine.test.ts and
// atlas-engine.test.ts): the reference's totals always, its pages when the matches fit in one
// look-up, and otherwise hits that are among its matches with its scores (the documented limit:
// the page is ranked among the candidates read). And the catalog of issue 43, H1, where two
// words each pass the cap and no school holds both.
import { expect } from 'vitest';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import type { EnginePage, EngineQuery } from '../../src/domain/search/engine.port.ts';
import type { SearchScope } from '../../src/domain/search/filters.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import type { ReferenceEngine } from '../../src/search/reference.engine.ts';
import { catalogOf } from './search-arbitraries.ts';

/** Each query as the reference answers it, within what a cap of `limit` allows (above). */
export async function expectReferenceAnswersAboveCap(
  search: (query: EngineQuery) => Promise<EnginePage>,
  reference: ReferenceEngine,
  queries: readonly (SearchScope & { words: readonly string[]; offset: number; limit: number })[],
  limit: number,
): Promise<void> {
  for (const { words, ...scope } of queries) {
    const asked = { ...scope, plan: planQuery(words.join(' ')) };
    const label = JSON.stringify({ words, ...scope });
    const page = await search(asked);
    const expected = await reference.search(asked);
    expect({ label, total: page.total }).toEqual({ label, total: expected.total });
    if (expected.total <= limit) expect({ label, ...page }).toEqual({ label, ...expected });
    else {
      const everyMatch = await reference.search({ ...asked, offset: 0, limit: expected.total });
      const matches = new Map(everyMatch.hits.map((h) => [h.school.id, h.score]));
      for (const hit of page.hits)
        expect({ label, score: matches.get(hit.school.id) }).toEqual({ label, score: hit.score });
    }
  }
}

const named = (name: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    name: `${name} ${i}`,
    city: 'Salem',
    state: 'OR',
    aliases: [],
    prominence: 0,
  }));

/** "oak" in 31 schools, "ridge" in 26, none holds both; "zed" in two, one with each. */
export const OAK_RIDGE: readonly CatalogSchool[] = catalogOf([
  ...named('Oak Academy', 30),
  ...named('Ridge Academy', 25),
  { name: 'Zed Oak Academy', city: 'Salem', state: 'OR', aliases: [], prominence: 0 },
  { name: 'Zed Ridge School', city: 'Salem', state: 'OR', aliases: [], prominence: 0 },
]);

/** The queries of OAK_RIDGE whose soft matching chooses between the two capped words. */
export const OAK_RIDGE_QUERIES = ['oak ridge', 'ridge oak', 'zed oak ridge', 'zed ridge oak', 'oak zed ridge'].map(
  (q) => ({ words: q.split(' '), offset: 0, limit: 25 }),
);
