// How many school documents a $text query reads, for each seed name typed in full (multi-word
// names) and for each of its starts: $text given every word (the pipeline before the $text
// engine: $text ORs them), and the $text engine (text.engine.ts): each word counted up to the
// candidate limit, then the rarest word's schools, at most the limit; plus, when even the rarest
// word is in more schools than the limit, the total counted once per catalog version (shown apart).
// Run: node scripts/bench/text-fanout.ts
import { readDrafts } from '../../src/import/read.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { deriveSearch } from '../../src/search/mongodb/search-fields.ts';
import { CANDIDATE_LIMIT } from '../../src/search/mongodb/candidates.ts';

const { drafts } = await readDrafts('data/seed/ipeds-hd2022.ndjson');
const df = new Map<string, number>();
// A school's words as the whole catalog looks them up: its tokens without their state's code.
const docs = drafts.map(
  (d) => new Set(deriveSearch({ ...d, prominence: d.prominence ?? 0 }).tokens.map((t) => t.slice(2))),
);
for (const tokens of docs) for (const t of tokens) df.set(t, (df.get(t) ?? 0) + 1);
const n = drafts.length;

const queries: string[] = [];
for (const d of drafts) {
  const words = d.name.split(/\s+/);
  if (words.length < 2) continue;
  queries.push(d.name);
  // The name as it is typed: every start that ends a word or cuts the last one short.
  for (let w = 1; w < words.length; w++) queries.push(`${words.slice(0, w).join(' ')} ${words[w]!.slice(0, 2)}`);
}

const everyWord: number[] = [];
const engine: number[] = [];
const warm: number[] = [];
let totals = 0;
for (const query of queries) {
  const tokens = planQuery(query).words.map((w) => w.text);
  const any = docs.reduce((count, doc) => count + (tokens.some((t) => doc.has(t)) ? 1 : 0), 0);
  everyWord.push(any);
  const counts = tokens.map((t) => df.get(t) ?? 0).filter((c) => c > 0);
  const rarest = counts.length ? Math.min(...counts) : 0;
  engine.push(counts.reduce((a, c) => a + Math.min(c, CANDIDATE_LIMIT + 1), 0) + Math.min(rarest, CANDIDATE_LIMIT));
  warm.push(Math.min(rarest, CANDIDATE_LIMIT));
  if (rarest > CANDIDATE_LIMIT) totals++;
}
const q = (a: number[], p: number) => [...a].sort((x, y) => x - y)[Math.floor(p * (a.length - 1))]!;
const line = (label: string, a: number[]) =>
  `${label.padEnd(36)} median ${String(q(a, 0.5)).padStart(5)}  p90 ${String(q(a, 0.9)).padStart(5)}  max ${String(q(a, 1)).padStart(5)}  (max ${((100 * q(a, 1)) / n).toFixed(1)} % of the catalog)`;
console.log(
  `${queries.length} queries (${drafts.length} schools: multi-word names, whole and as typed); documents read per query`,
);
console.log(line('$text given every word', everyWord));
console.log(line(`$text engine, counts not cached yet`, engine));
console.log(line(`$text engine, counts cached`, warm));
console.log(
  `queries whose every word is in more than ${CANDIDATE_LIMIT} schools (total counted once per catalog version): ${totals} (${((100 * totals) / queries.length).toFixed(1)} %)`,
);
