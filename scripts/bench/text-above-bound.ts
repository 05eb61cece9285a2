// The $text engine's queries whose every word is in more schools than a look-up reads
// (CANDIDATE_LIMIT), on the seed's queries of text-fanout.ts (multi-word names, whole and as
// typed): how often soft matching decided among the first CANDIDATE_LIMIT holders of the rarest
// word (in index order) differs from the rules' decision over the whole catalog (issue 26,
// finding 9), and what deciding it on the server costs, in documents read. The text index's order
// among a word's holders is approximated by state, then the file's order. `--limit N` sets the bound (the
// colleges hold 6,112 schools; a smaller bound stands in for a larger catalog), `--file` another
// catalog (the whole seed, data/seed/schools.ndjson.gz), `--every N` every Nth name's queries. Run:
// node scripts/bench/text-above-bound.ts [--limit 200] [--file data/seed/schools.ndjson.gz --every 20]
import { parseArgs } from 'node:util';
import { readDrafts } from '../../src/import/read.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { deriveSearch } from '../../src/search/mongodb/search-fields.ts';
import { CANDIDATE_LIMIT } from '../../src/search/mongodb/candidates.ts';

const { values } = parseArgs({
  options: { limit: { type: 'string' }, file: { type: 'string' }, every: { type: 'string' } },
});
const LIMIT = values.limit ? Number(values.limit) : CANDIDATE_LIMIT;
const EVERY = values.every ? Number(values.every) : 1;

const { drafts } = await readDrafts(values.file ?? 'data/seed/ipeds-hd2022.ndjson');
// A school's words as the whole catalog looks them up: its tokens without their state's code.
const docs = drafts.map(
  (d) => new Set(deriveSearch({ ...d, prominence: d.prominence ?? 0 }).tokens.map((t) => t.slice(2))),
);
// A word's holders in the order $text hands them on in the whole catalog: state after state (its
// OR of one term per state, sorted), in the file's order within a state.
const byState = drafts
  .map((_, i) => i)
  .sort((a, b) => drafts[a]!.state.toLowerCase().localeCompare(drafts[b]!.state.toLowerCase()) || a - b);
const holders = new Map<string, number[]>();
for (const i of byState) {
  for (const t of docs[i]!) {
    const list = holders.get(t);
    if (list) list.push(i);
    else holders.set(t, [i]);
  }
}

const queries: string[] = [];
for (const [n, d] of drafts.entries()) {
  const words = d.name.split(/\s+/);
  if (n % EVERY !== 0) continue;
  if (words.length < 2) continue;
  queries.push(d.name);
  for (let w = 1; w < words.length; w++) queries.push(`${words.slice(0, w).join(' ')} ${words[w]!.slice(0, 2)}`);
}

/** Soft matching (rank-candidates.ts): drop the most common word (the later of equals) while no school of `pool` holds all. */
function softMatch(
  tokens: readonly string[],
  found: (t: string) => number,
  holdsAll: (required: readonly string[]) => boolean,
) {
  let required = [...tokens];
  const asked: string[][] = [required];
  while (required.length > 1 && !holdsAll(required)) {
    let drop = required[0]!;
    for (const t of required) if (found(t) >= found(drop)) drop = t;
    required = required.filter((t) => t !== drop);
    asked.push(required);
  }
  return { required, asked };
}

let above = 0;
let wrong = 0;
let wrongTotal = 0;
let few = 0;
const examinedBefore: number[] = [];
const examinedAfter: number[] = [];
const examinedFirst: number[] = [];
const totalsBefore = new Map<string, number>();
const totalsAfter = new Map<string, number>();
for (const query of queries) {
  const tokens = [...new Set(planQuery(query).words.map((w) => w.text))].filter((t) => holders.has(t));
  if (tokens.length === 0) continue;
  const found = (t: string) => holders.get(t)!.length;
  // The rarest, the earliest of equals: first in the query order.
  const rarest = tokens.reduce((r, t) => (found(t) < found(r) ? t : r));
  if (found(rarest) <= LIMIT) continue;
  above++;
  const ordered = [rarest, ...tokens.filter((t) => t !== rarest)];
  const rarestHolders = holders.get(rarest)!;
  const matches = (required: readonly string[]) => rarestHolders.filter((i) => required.every((t) => docs[i]!.has(t)));
  const key = (required: readonly string[]) => [...required].sort().join(' ');
  // Before: decided among the first LIMIT holders; one total, of what that decision kept.
  const first = rarestHolders.slice(0, LIMIT);
  const before = softMatch(ordered, found, (required) => first.some((i) => required.every((t) => docs[i]!.has(t))));
  totalsBefore.set(key(before.required), found(rarest));
  examinedBefore.push(LIMIT);
  // After: decided by exact totals (each a read of every holder of the rarest word, cached per version).
  const after = softMatch(ordered, found, (required) => matches(required).length > 0);
  for (const required of after.asked) totalsAfter.set(key(required), found(rarest));
  const kept = matches(after.required);
  // The candidates: at most LIMIT matches, all read by id once found (the first time in a version,
  // by reading every holder); more, the matches among the first LIMIT holders.
  examinedAfter.push(kept.length <= LIMIT ? kept.length : LIMIT);
  if (kept.length <= LIMIT) few++;
  examinedFirst.push(kept.length <= LIMIT ? rarestHolders.length : LIMIT);
  if (key(before.required) !== key(after.required)) wrong++;
  if (matches(before.required).length !== kept.length) wrongTotal++;
}
const q = (a: number[], p: number) => [...a].sort((x, y) => x - y)[Math.floor(p * (a.length - 1))] ?? 0;
const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const line = (label: string, a: number[]) =>
  `${label.padEnd(44)} median ${String(q(a, 0.5)).padStart(6)}  p90 ${String(q(a, 0.9)).padStart(6)}  max ${String(q(a, 1)).padStart(6)}`;
console.log(
  `${queries.length} queries on ${drafts.length} schools, look-ups of ${LIMIT}: ${above} (${((100 * above) / queries.length).toFixed(1)} %) have every word in more than ${LIMIT} schools`,
);
console.log(
  `soft matching decided otherwise than over the whole catalog, before: ${wrong} of them; total wrong: ${wrongTotal}`,
);
console.log(`at most ${LIMIT} matches (every one read: the page is exact): ${few} of them`);
console.log('documents read per such query, totals cached:');
console.log(line('  before (the first look-up)', examinedBefore));
console.log(line('  after (matches by id, or the first look-up)', examinedAfter));
console.log(line('  after, first time in a catalog version', examinedFirst));
console.log(
  `documents read once per catalog version by the totals of them all: before ${sum(totalsBefore)} (${totalsBefore.size} totals), after ${sum(totalsAfter)} (${totalsAfter.size} totals); per instance before, once for all instances after`,
);
