// The in-process engine, two checkouts side by side in one process: `node scripts/bench/engine-ab.ts
// --base DIR [--rounds N]`. Builds one index of the seed with each checkout's code, asks each the
// bench's distinct searches (mix.ts, distinctSearches) for the first time (no answer kept, word
// caches emptied by a fresh index per round), checks that both give the same pages (schools, scores,
// order, total), and prints the microseconds per search of each, per class (p50 of the wall time
// of each search), and the process's CPU time per search of a round, the two interleaved by round.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { readSeedSchools } from './catalog-file.ts';
import { DISTINCT_PER_CLASS, distinctSearches, makeMix, MIX_CLASSES } from './mix.ts';
import { mulberry32 } from './random.ts';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    seed: { type: 'string', default: '1' },
  },
});
if (!values.base) throw new Error('--base DIR: the checkout to compare with');
const rounds = Number(values.rounds);
const seed = Number(values.seed);

const here = resolve(import.meta.dirname, '../..');
const load = async (root: string) => ({
  root,
  planQuery: (await import(`${root}/src/domain/search/query.ts`)).planQuery,
  buildIndex: (await import(`${root}/src/search/memory/build.ts`)).buildIndex,
  MemoryIndex: (await import(`${root}/src/search/memory/memory-index.ts`)).MemoryIndex,
  loadQualityCatalog: (await import(`${root}/scripts/quality/catalog.ts`)).loadQualityCatalog,
});
const sides = [await load(resolve(values.base)), await load(here)];

const real = readSeedSchools();
const classes = distinctSearches(real, seed);
// The searches of distinct paths back as requests: makeMix with the same seed as distinctSearches.
const drawn = makeMix(real, DISTINCT_PER_CLASS, mulberry32(seed + 2000));
const requests = MIX_CLASSES.map((c) => {
  const wanted = new Set(classes.find((k) => k.name === c)!.paths);
  const seen = new Set<string>();
  return {
    name: c,
    list: drawn[c].filter((q) => wanted.has(q.path) && !seen.has(q.path) && seen.add(q.path)),
  };
});
const total = requests.reduce((n, c) => n + c.list.length, 0);
console.log(`${total} distinct searches: ${requests.map((c) => `${c.name} ${c.list.length}`).join(', ')}`);

const catalog = await sides[0]!.loadQualityCatalog({ directories: false });
const datas = sides.map((s) => s.buildIndex(catalog.schools));

const query = (side: (typeof sides)[number], q: (typeof requests)[number]['list'][number]) => ({
  plan: side.planQuery(q.query),
  stateCode: q.stateCode,
  level: q.level,
  type: q.type,
  near: q.near,
  radiusKm: q.radiusKm,
  offset: q.offset ?? 0,
  limit: q.limit ?? 25,
});

// Exactness: every page the same.
{
  const indexes = sides.map((s, i) => new s.MemoryIndex(datas[i], { keptAnswers: 0 }));
  let differ = 0;
  for (const c of requests)
    for (const q of c.list) {
      const pages = sides.map((s, i) => JSON.stringify(indexes[i].search(query(s, q))));
      if (pages[0] !== pages[1]) {
        if (differ++ < 5) console.log(`DIFFERENT: ${c.name} ${q.path}`);
      }
    }
  console.log(differ === 0 ? 'pages: all the same' : `pages: ${differ} DIFFERENT`);
  if (differ > 0) process.exitCode = 1;
}

// Timing: per round, a fresh index per side (empty caches: first asking), sides alternating.
const us: number[][][] = sides.map(() => requests.map(() => []));
const totals: number[][] = sides.map(() => []);
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [0, 1] : [1, 0];
  for (const s of order) {
    const side = sides[s]!;
    const index = new side.MemoryIndex(datas[s], { keptAnswers: 0 });
    const queries = requests.map((c) => c.list.map((q) => query(side, q)));
    const cpu = process.cpuUsage();
    requests.forEach((_c, ci) => {
      for (const q of queries[ci]!) {
        const t = performance.now();
        index.search(q);
        us[s]![ci]!.push((performance.now() - t) * 1000);
      }
    });
    const used = process.cpuUsage(cpu);
    totals[s]!.push((used.user + used.system) / total);
  }
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
console.log('class        base p50 µs   new p50 µs   new/base');
requests.forEach((c, ci) => {
  const a = median(us[0]![ci]!);
  const b = median(us[1]![ci]!);
  console.log(
    `${c.name.padEnd(12)} ${a.toFixed(1).padStart(11)} ${b.toFixed(1).padStart(12)} ${(b / a).toFixed(3).padStart(10)}`,
  );
});
const a = median(totals[0]!);
const b = median(totals[1]!);
console.log(
  `CPU per search (median of ${rounds} rounds): base ${a.toFixed(1)} µs, new ${b.toFixed(1)} µs, new/base ${(b / a).toFixed(3)}`,
);
console.log(
  `rounds base: ${totals[0]!.map((x) => x.toFixed(0)).join(' ')}; new: ${totals[1]!.map((x) => x.toFixed(0)).join(' ')}`,
);
