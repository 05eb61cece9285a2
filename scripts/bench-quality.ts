// npm run bench:quality — the search's quality on real school names: query classes built from the
// committed IPEDS seed and the Canadian sample (scripts/quality/classes.ts), run against the
// in-process engine the API serves from, with the share of hits per class against its target.
// Exits 1 when a class is below its target. Options:
//   --misses N     print up to N missed probes per class (default 0)
//   --json         print the figures as one JSON line too
import { parseArgs } from 'node:util';
import { buildIndex } from '../src/search/memory/build.ts';
import { MemoryIndex } from '../src/search/memory/memory.index.ts';
import { loadCatalog } from './quality/catalog.ts';
import { buildClasses } from './quality/classes.ts';
import { evaluate } from './quality/evaluate.ts';
import { printResults } from './quality/report.ts';

const { values } = parseArgs({ options: { misses: { type: 'string' }, json: { type: 'boolean' } } });
const catalog = await loadCatalog();
const classes = buildClasses(catalog);
const index = new MemoryIndex(buildIndex(catalog));
const results = await evaluate({ search: async (q) => index.search(q) }, classes);
const failed = printResults(`in-process index, ${catalog.length} schools (IPEDS seed + Canadian sample)`, results, Number(values.misses ?? 0));
if (values.json) process.stdout.write(`${JSON.stringify({ bench: 'quality', schools: catalog.length, classes: results.map(({ misses: _m, ...r }) => r) })}\n`);
process.exitCode = failed ? 1 : 0;
