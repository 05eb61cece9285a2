// A document's grade on its own (src/search/memory/grading.ts), with the query's word order
// passed in: "the name starts with the query" follows the order given, and nothing else does.
import { describe, expect, test } from 'vitest';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { buildIndex } from '../../src/search/memory/build.ts';
import { Expander } from '../../src/search/memory/expansion.ts';
import { Grader, qualityOf } from '../../src/search/memory/grading.ts';

function school(i: number, name: string): CatalogSchool {
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name,
    city: 'Springfield',
    state: 'TX',
    imageUrl: null,
    aliases: [],
    prominence: 0,
  };
}

const CATALOG = [school(0, 'Lincoln Washington Academy'), school(1, 'Washington Lincoln Academy')];
const data = buildIndex(CATALOG);
/** The document of catalog row `row` (documents are numbered in the static order). */
const docOf = (row: number): number => data.order.indexOf(row);

describe('Grader', () => {
  const grader = new Grader(data);
  const plan = planQuery('lincoln washington');
  const expansions = plan.words.map((w) => new Expander(data).expand(w));

  test('when the same words are given in either order, then only the name in that order starts with the query', () => {
    grader.mark(expansions);
    try {
      const inOrder = [0, 1];
      const reversed = [1, 0];
      const grade = (row: number, sequence: number[]) => qualityOf(grader.grade(docOf(row), expansions, sequence), 0);
      expect(grade(0, inOrder).starts).toBe(true);
      expect(grade(1, inOrder).starts).toBe(false);
      expect(grade(0, reversed).starts).toBe(false);
      expect(grade(1, reversed).starts).toBe(true);
      // The order changes that step only: the words found and their credit are the same.
      const { starts: _a, ...rest } = grade(0, inOrder);
      const { starts: _b, ...restReversed } = grade(0, reversed);
      expect(restReversed).toStrictEqual(rest);
      expect(rest.matched).toBe(2);
    } finally {
      grader.unmark(expansions);
    }
  });

  test('when the words are unmarked again, then none of their terms counts, not even their prefix ranges', () => {
    // mark() paints every kind, the prefix ranges included (one read per term graded): unmarked,
    // `lincoln` and `washington` match nothing.
    const sequence = [0, 1];
    const marked = (() => {
      grader.mark(expansions);
      try {
        return qualityOf(grader.grade(docOf(0), expansions, sequence), 0);
      } finally {
        grader.unmark(expansions);
      }
    })();
    const unmarked = qualityOf(grader.grade(docOf(0), expansions, sequence), 0);
    expect(marked.matched).toBe(2);
    expect(unmarked.matched).toBe(0);
    expect(unmarked.credit).toBe(0);
  });
});
