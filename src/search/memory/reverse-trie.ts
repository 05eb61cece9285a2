// The trie of the vocabulary's terms spelled backwards, for the typo walks (typos.ts): a term
// whose first half is mistyped is found by walking this trie from the end of the word. Its nodes
// give the vocabulary's own term ids.
import { buildTrie } from './trie.ts';

/** Laid out as the trie's nodeChar, nodeFirstChild and nodeTerm (trie.ts). */
export interface ReverseTrie {
  readonly revChar: Uint16Array;
  readonly revFirstChild: Uint32Array;
  /** The id (in the vocabulary) of the term a node spells backwards, or -1. */
  readonly revTerm: Int32Array;
}

/** The reverse trie of a vocabulary (any order; ids are positions in it). */
export function buildReverseTrie(vocabulary: readonly string[]): ReverseTrie {
  const reversed = vocabulary.map((term) => {
    let text = '';
    for (let i = term.length - 1; i >= 0; i--) text += term[i];
    return text;
  });
  const order = Array.from(vocabulary.keys()).sort((a, b) =>
    reversed[a]! < reversed[b]! ? -1 : reversed[a]! > reversed[b]! ? 1 : 0,
  );
  // Its nodeLo, nodeHi and nodeLongest are not kept: ranges of reversed terms name nothing, and
  // only prefix walks (forwards) read the longest term.
  const trie = buildTrie(order.map((id) => reversed[id]!));
  const revTerm = trie.nodeTerm;
  for (let n = 0; n < revTerm.length; n++) if (revTerm[n]! >= 0) revTerm[n] = order[revTerm[n]!]!;
  return { revChar: trie.nodeChar, revFirstChild: trie.nodeFirstChild, revTerm };
}
