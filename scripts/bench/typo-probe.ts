// Time of the typo walks (typos.ts) over the words of the bench's distinct searches: terms() for
// every word, nodes() for last words. `node scripts/bench/typo-probe.ts`.
import { planQuery } from '../../src/domain/search/query.ts';
import { typoBudget } from '../../src/domain/search/query.ts';
import { buildIndex } from '../../src/search/memory/build.ts';
import { Typos } from '../../src/search/memory/typos.ts';
import { loadQualityCatalog } from '../quality/catalog.ts';
import { readSeedSchools } from './catalog-file.ts';
import { DISTINCT_PER_CLASS, makeMix, MIX_CLASSES } from './mix.ts';
import { mulberry32 } from './random.ts';

const real = readSeedSchools();
const drawn = makeMix(real, DISTINCT_PER_CLASS, mulberry32(2001));
const termWords = new Set<string>();
const nodeWords = new Set<string>();
for (const c of MIX_CLASSES)
  for (const q of drawn[c])
    for (const w of planQuery(q.query).words) {
      if (typoBudget(w.text.length + 2) > 0) termWords.add(w.text);
      if (w.last && w.typos > 0) nodeWords.add(w.text);
    }
const data = buildIndex((await loadQualityCatalog({ directories: false })).schools);
const typos = new Typos(data);
const time = (words: Set<string>, f: (w: string) => number[]) => {
  let found = 0;
  const started = performance.now();
  for (const w of words) found += f(w).length;
  return { us: ((performance.now() - started) * 1000) / words.size, found };
};
for (let r = 0; r < 3; r++) {
  const t = time(termWords, (w) => typos.terms(w));
  const n = time(nodeWords, (w) => typos.nodes(w));
  console.log(
    `terms: ${termWords.size} words, ${t.us.toFixed(1)} µs each (${t.found} found); nodes: ${nodeWords.size} words, ${n.us.toFixed(1)} µs each (${n.found} found)`,
  );
}
for (const k of [1, 2]) {
  const ws = new Set([...nodeWords].filter((w) => typoBudget(w.length) === k));
  const n = time(ws, (w) => typos.nodes(w));
  const tw = new Set([...termWords].filter((w) => typoBudget(w.length + 2) === k));
  const t = time(tw, (w) => typos.terms(w));
  console.log(
    `budget ${k}: nodes ${ws.size} words ${n.us.toFixed(1)} µs; terms ${tw.size} words ${t.us.toFixed(1)} µs`,
  );
}
// nodesHoldTerms: every term terms() finds is at or below a node nodes() finds.
{
  const { nodesHoldTerms } = await import('../../src/search/memory/typos.ts');
  let checked = 0;
  for (const w of nodeWords) {
    if (!nodesHoldTerms(w.length)) continue;
    const nodes = typos.nodes(w);
    for (const t of typos.terms(w))
      if (!nodes.some((n) => t >= data.nodeLo[n]! && t < data.nodeHi[n]!)) throw new Error(`${w}: term ${t} outside`);
    checked++;
  }
  console.log(`nodesHoldTerms: ${checked} words checked`);
}
