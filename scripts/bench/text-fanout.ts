// How many schools the $text pipeline fetches for each seed name typed in full (multi-word
// names): $text given every word (the old pipeline), the longest word (the current one), the rarest
// (the lower bound, which needs per-word document counts). Run: node scripts/bench/text-fanout.ts
import { readDrafts } from '../../src/import/read.ts';
import { edgeGrams } from '../../src/stores/mongodb/grams.ts';
import { queryTerms, searchText } from '../../src/stores/mongodb/texts.ts';
import { selectiveTerm } from '../../src/stores/mongodb/search.pipeline.ts';

const { drafts } = await readDrafts('data/seed/ipeds-hd2022.ndjson');
const postings = new Map<string, Set<number>>();
drafts.forEach((d, i) => {
  for (const name of [d.name, ...(d.aliases ?? [])]) {
    for (const g of edgeGrams(searchText(name).terms)) {
      let s = postings.get(g);
      if (!s) postings.set(g, (s = new Set()));
      s.add(i);
    }
  }
});
const n = drafts.length;
const anyShare: number[] = [];
const oneShare: number[] = [];
for (const d of drafts) {
  const terms = queryTerms(d.name);
  if (terms.length < 2) continue;
  const any = new Set<number>();
  for (const t of terms) for (const i of postings.get(t) ?? []) any.add(i);
  anyShare.push(any.size / n);
  oneShare.push((postings.get(selectiveTerm(terms))?.size ?? 0) / n);
}
const q = (a: number[], p: number) => { const s = [...a].sort((x, y) => x - y); return (100 * s[Math.floor(p * (s.length - 1))]!).toFixed(1) + ' %'; };
console.log(`${anyShare.length} multi-word names of ${n} schools`);
console.log(`every term: median ${q(anyShare, 0.5)}, p90 ${q(anyShare, 0.9)}, max ${q(anyShare, 1)}`);
console.log(`longest term: median ${q(oneShare, 0.5)}, p90 ${q(oneShare, 0.9)}, max ${q(oneShare, 1)}`);
const rare: number[] = [];
for (const d of drafts) {
  const terms = queryTerms(d.name);
  if (terms.length < 2) continue;
  rare.push(Math.min(...terms.map((t) => postings.get(t)?.size ?? 0)) / n);
}
console.log(`rarest term: median ${q(rare, 0.5)}, p90 ${q(rare, 0.9)}, max ${q(rare, 1)}`);
