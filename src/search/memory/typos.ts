// Terms within a few edits of a query word, found by walking the vocabulary's trie with one row
// of the edit-distance table per depth (a Levenshtein automaton evaluated lazily): a branch is
// left as soon as no cell of its row is within the budget. The distance is optimal string
// alignment, exactly as src/domain/search/matching.ts computes it, so both agree term by term.
import { typoBudget } from '../../domain/search/query.ts';
import type { IndexData } from './index-data.ts';

export interface TypoMatches {
  /** Whole terms within the budget. */
  readonly terms: number[];
  /** Nodes whose every term starts within the budget (prefix mode only). */
  readonly nodes: number[];
}

type Trie = Pick<IndexData, 'nodeChar' | 'nodeDepth' | 'nodeFirstChild' | 'nodeChildCount' | 'nodeTerm'>;

/**
 * `whole`: the terms within their budget of `word` (typoBudget of the longer of the two, as
 * matching.ts decides). `prefixes`: the nodes (prefixes) within the budget of `word`'s own length,
 * each standing for every term below it.
 */
export function typoMatches(trie: Trie, word: string, mode: 'whole' | 'prefixes'): TypoMatches {
  const m = word.length;
  const prefixes = mode === 'prefixes';
  // The most edits any term may be at: a whole term is at most 2 letters longer than the word
  // within 2 edits, so the budget of m + 2 letters bounds them all.
  const max = prefixes ? typoBudget(m) : typoBudget(m + 2);
  const maxDepth = m + max;
  const width = m + 1;
  // rows[d * width + j]: distance between the node's prefix (length d) and word[0, j).
  const rows = new Int32Array((maxDepth + 1) * width);
  for (let j = 0; j <= m; j++) rows[j] = j;
  const path = new Uint16Array(maxDepth + 1);
  const terms: number[] = [];
  const nodes: number[] = [];
  const stack: number[] = [];
  const pushChildren = (node: number) => {
    const first = trie.nodeFirstChild[node]!;
    for (let c = first + trie.nodeChildCount[node]! - 1; c >= first; c--) stack.push(c);
  };
  pushChildren(0);
  while (stack.length > 0) {
    const node = stack.pop()!;
    const d = trie.nodeDepth[node]!;
    const c = trie.nodeChar[node]!;
    path[d] = c;
    const row = d * width;
    const up = row - width;
    const up2 = up - width;
    rows[row] = d;
    let best = d;
    for (let j = 1; j <= m; j++) {
      const wc = word.charCodeAt(j - 1);
      let v = Math.min(rows[up + j]! + 1, rows[row + j - 1]! + 1, rows[up + j - 1]! + (wc === c ? 0 : 1));
      if (d > 1 && j > 1 && wc === path[d - 1] && word.charCodeAt(j - 2) === c) v = Math.min(v, rows[up2 + j - 2]! + 1);
      rows[row + j] = v;
      if (v < best) best = v;
    }
    const distance = rows[row + m]!;
    if (prefixes && distance <= max) {
      nodes.push(node);
      continue;
    }
    if (trie.nodeTerm[node]! >= 0 && distance <= typoBudget(Math.max(m, d))) terms.push(trie.nodeTerm[node]!);
    if (best <= max && d < maxDepth) pushChildren(node);
  }
  return { terms, nodes };
}
