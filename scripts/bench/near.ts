// The in-process index's cost for filters and "near me", on the quality benchmark's catalog (the
// real seed: scripts/quality/catalog.ts) — `node scripts/bench/near.ts [--runs N] [--catalog full]`.
// Prints, per query and scope, the microseconds of MemoryIndex.search (p50 / p99 / max) with the
// words' bitsets cached and no answer kept (each run is answered anew, from a point a few
// centimetres off the last: no two users stand on one spot), the matches, and what the filters
// and coordinates add to the index. Figures: docs/search.md.
import { parseArgs } from 'node:util';
import type { EngineQuery } from '../../src/domain/search/engine.port.ts';
import { TYPE_FILTERS, type SearchScope } from '../../src/domain/search/filters.ts';
import type { GeoPoint } from '../../src/domain/catalog/geo.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { LEVELS } from '../../src/domain/catalog/school-kind.ts';
import { wordsFor } from '../../src/search/memory/bitset.ts';
import { buildIndex } from '../../src/search/memory/build.ts';
import type { IndexData } from '../../src/search/memory/index-data.ts';
import { isKindOfType, levelIndexOf } from '../../src/search/memory/kind-bits.ts';
import { MemoryIndex } from '../../src/search/memory/memory-index.ts';
import { loadQualityCatalog } from '../quality/catalog.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '300' }, catalog: { type: 'string', default: 'seed' } },
});
const runs = Number(values.runs);

const POINTS: Record<string, GeoPoint> = {
  'New York': { latitude: 40.7128, longitude: -74.006 },
  'rural Montana': { latitude: 47.0, longitude: -109.5 },
};
const QUERIES = ['school', 'lincoln elementary', 'li', 'elementary'];
const SCOPES: Record<string, (at: GeoPoint) => Omit<SearchScope, 'state'>> = {
  'no filter': () => ({}),
  'level elementary': () => ({ level: ['elementary'] }),
  'type public, charter': () => ({ type: ['public', 'charter'] }),
  near: (at) => ({ near: at }),
  'near, radius 25 km': (at) => ({ near: at, radiusKm: 25 }),
  'near, radius 500 km': (at) => ({ near: at, radiusKm: 500 }),
  'near, level high, type private': (at) => ({ near: at, level: ['high'], type: ['private'] }),
};

const loaded = await loadQualityCatalog({ directories: values.catalog === 'full' });
let started = performance.now();
const data = buildIndex(loaded.schools);
const buildMs = performance.now() - started;
const index = new MemoryIndex(data, { keptAnswers: 0 });

const bytes = (keys: readonly (keyof IndexData)[]) =>
  keys.reduce((n, k) => n + (data[k] as unknown as ArrayBufferView).byteLength, 0);
const all = Object.keys(data).filter((k) => ArrayBuffer.isView(data[k as keyof IndexData])) as (keyof IndexData)[];
const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
console.log(`${data.docCount} schools (${loaded.label}); index built in ${buildMs.toFixed(0)} ms, ${mb(bytes(all))}`);
console.log(
  `  level and type bitsets ${mb(bytes(['levelSets', 'typeSets']))}; coordinates ${mb(bytes(['docLat', 'docLon']))}; ` +
    `grid ${mb(bytes(['geoCell', 'geoCellStart', 'geoDocs']))} (${data.geoCell.length} cells)`,
);

// The alternative to the level and type bitsets: a pass over docKind per filtered search.
const words = wordsFor(data.docCount);
const scan = new Uint32Array(words);
const union = new Uint32Array(words);
const timeIt = (f: () => void): number => {
  for (let i = 0; i < 20; i++) f();
  started = performance.now();
  for (let i = 0; i < 200; i++) f();
  return ((performance.now() - started) / 200) * 1000;
};
const scanUs = timeIt(() => {
  scan.fill(0);
  const level = LEVELS.indexOf('elementary');
  for (let doc = 0; doc < data.docCount; doc++) {
    const kind = data.docKind[doc]!;
    if (levelIndexOf(kind) === level && (isKindOfType(kind, 'public') || isKindOfType(kind, 'charter')))
      scan[doc >>> 5]! |= 1 << (doc & 31);
  }
});
const unionUs = timeIt(() => {
  const level = LEVELS.indexOf('elementary');
  const pub = TYPE_FILTERS.indexOf('public');
  const charter = TYPE_FILTERS.indexOf('charter');
  for (let w = 0; w < words; w++)
    union[w] =
      data.levelSets[level * words + w]! & (data.typeSets[pub * words + w]! | data.typeSets[charter * words + w]!);
});
console.log(
  `  level elementary AND type public or charter: ${scanUs.toFixed(1)} µs as a pass over docKind, ${unionUs.toFixed(1)} µs from the bitsets`,
);

const pct = (sorted: Float64Array, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
console.log(
  `\nµs per search, first page (${runs} runs each; words' bitsets cached, no answer kept): p50 / p99 / max, matches`,
);
for (const [place, at] of Object.entries(POINTS)) {
  console.log(`\nnear ${place} (${at.latitude}, ${at.longitude})`);
  for (const query of QUERIES) {
    const plan = planQuery(query);
    for (const [label, scopeOf] of Object.entries(SCOPES)) {
      const times = new Float64Array(runs);
      let total = 0;
      for (let i = -20; i < runs; i++) {
        // A few centimetres apart: a new answer each time, the same words.
        const point = { latitude: at.latitude + (i + 21) * 1e-7, longitude: at.longitude };
        const scope = scopeOf(point);
        const q: EngineQuery = { plan, ...scope, offset: 0, limit: 25 };
        started = performance.now();
        const page = index.search(q);
        if (i >= 0) times[i] = (performance.now() - started) * 1000;
        total = page.total;
      }
      times.sort();
      console.log(
        `  ${`"${query}"`.padEnd(22)} ${label.padEnd(32)} ${pct(times, 50).toFixed(0).padStart(6)} / ${pct(times, 99)
          .toFixed(0)
          .padStart(6)} / ${times[runs - 1]!.toFixed(0).padStart(6)}   ${total}`,
      );
    }
  }
}
