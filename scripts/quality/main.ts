// npm run bench:quality — the search's quality on real school names: query classes built from a
// catalog (scripts/quality/catalog.ts, classes.ts), run against the in-process engine the API
// serves from, with the share of hits per class against its target. Exits 1 when a class is below
// its target. Options:
//   --catalog C    seed (default): the project's seed — the real ~150,000-school seed once
//                  committed (catalog.ts, REAL_SEED), else the IPEDS seed + the Canadian sample;
//                  full: the real seed, else the IPEDS seed + the K-12 and Canadian directories
//                  of ../shared/data (k12-catalog.ts), with the K-12 classes
//   --misses N     print up to N missed probes per class (default 0)
//   --json         print the figures as one JSON line too
//   --engine E     memory (default: the API's), or text: the MongoDB $text engine over the
//                  adapter's documents, its pipelines run by mingo (no typos by design: its
//                  figures are printed for the docs, and do not fail the run)
import { parseArgs } from 'node:util';
import type { EngineQuery } from '../../src/domain/search/engine.port.ts';
import { toDocument } from '../../src/mongodb-shared/school-document.ts';
import { SEARCH_EXTENSION } from '../../src/search/mongodb/catalog-extension.ts';
import { MongoTextEngine } from '../../src/search/mongodb/text.engine.ts';
import { mingoSourceOf } from './mingo-search.ts';
import { buildIndex } from '../../src/search/memory/build.ts';
import { MemoryIndex } from '../../src/search/memory/memory-index.ts';
import { ReferenceEngine } from '../../src/search/reference.engine.ts';
import { loadQualityCatalog } from './catalog.ts';
import { buildClasses } from './classes.ts';
import { evaluate } from './evaluate.ts';
import { printResults } from './report.ts';

const { values } = parseArgs({
  options: {
    misses: { type: 'string' },
    json: { type: 'boolean' },
    engine: { type: 'string', default: 'memory' },
    catalog: { type: 'string', default: 'seed' },
  },
});
if (values.catalog !== 'seed' && values.catalog !== 'full')
  throw new Error(`--catalog: seed or full, not ${values.catalog}`);
const loaded = await loadQualityCatalog({ directories: values.catalog === 'full' });
const catalog = loaded.schools;
const classes = buildClasses(catalog, { colleges: loaded.colleges, k12: loaded.k12, allCaps: loaded.allCaps });
let search: (q: EngineQuery) => Promise<import('../../src/domain/search/engine.port.ts').EnginePage>;
let label: string;
if (values.engine === 'text') {
  const docs = catalog.map((s) => toDocument({ ...s, aliases: [...s.aliases] }, SEARCH_EXTENSION));
  const engine = new MongoTextEngine(
    mingoSourceOf(async () => docs),
    { versionTtlMs: 3_600_000 },
  );
  search = (q) => engine.search(q);
  label = '$text engine (pipelines run by mingo)';
} else if (values.engine === 'memory') {
  const index = new MemoryIndex(buildIndex(catalog));
  search = async (q) => index.search(q);
  label = 'in-process index';
} else {
  throw new Error(`--engine: memory or text, not ${values.engine}`);
}
// The filter class's totals come from the reference engine, over one state's schools at a time.
const references = new Map<string, ReferenceEngine>();
const referenceFor = (state: string): ReferenceEngine => {
  let engine = references.get(state);
  if (!engine) {
    engine = new ReferenceEngine(catalog.filter((s) => s.state === state));
    references.set(state, engine);
  }
  return engine;
};
const results = await evaluate({ search }, classes, values.engine === 'memory' ? referenceFor : undefined);
const below = printResults(
  `${label}, ${catalog.length} schools (${loaded.label})`,
  results,
  Number(values.misses ?? 0),
);
if (below && values.engine === 'text')
  process.stdout.write('(the $text engine has no typo matching by design: its figures do not fail the run)\n');
const failed = below && values.engine === 'memory';
if (values.json)
  process.stdout.write(
    `${JSON.stringify({ bench: 'quality', schools: catalog.length, classes: results.map(({ misses: _m, ...r }) => r) })}\n`,
  );
process.exitCode = failed ? 1 : 0;
