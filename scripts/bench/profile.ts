// Summary of a scenario's CPU profile of the server (`npm run bench -- --cpu-prof DIR`): where
// its main thread spent the measured window, by area of the server, by file and by function
// (self time: the samples in which that code itself ran, not what it called). A sample's area is
// that of the innermost frame of its stack that belongs to one (AREAS), so that native work (a
// socket write, JSON.stringify, a hash) counts for the code that asked for it.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, out, table } from './format.ts';

interface ProfileNode {
  readonly id: number;
  readonly children?: readonly number[];
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The server's areas, by the script a frame runs: the first that matches. */
const AREAS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\/src\/search\/|\/src\/domain\/search\/(query|matching|analysis|synonyms|rank|filters)/, 'engine (and query plan)'],
  [/\/src\/domain\/search\/(answer-cache|kept-answers|search-key)/, "answer cache's bookkeeping"],
  [/\/src\/http\/compression\//, 'sending (compression, writes)'],
  [/express-openapi-validator|\/ajv/, 'request validation'],
  [/\/middleware\/auth\.ts|token\.store|\/domain\/accounts\//, 'authentication'],
  [/request\.store|\/records\.ts|record-writer|\/metering\//, "the record's commit (event loop's part)"],
  [/\/pino|access-log|redact/, 'logging'],
  [/prom-client|\/metrics\//, 'metrics'],
  [/\/src\/http\/operations\/(handlers|bodies)/, "serialisation (the answer's JSON)"],
  [/\/src\/http\/|\/src\/domain\//, 'other middleware, dispatch, service'],
  [
    /node_modules\/(express|router|body-parser|qs|helmet|cors|express-rate-limit)\/|node:querystring/,
    'express and its middleware',
  ],
  [/node:_http|node:net|node:internal\/stream|node:events|node:stream|node:internal\/http/, "Node's HTTP"],
  [/node:inspector|\/scripts\/bench\//, 'the bench and the profiler'],
];

function areaOf(nodeId: number, byId: Map<number, ProfileNode>, parent: Map<number, number>): string {
  const leaf = byId.get(nodeId)!.callFrame;
  if (!leaf.url && leaf.functionName === '(garbage collector)') return 'garbage collection (event loop)';
  if (!leaf.url && (leaf.functionName === '(idle)' || leaf.functionName === '(program)')) return leaf.functionName;
  for (let id: number | undefined = nodeId; id !== undefined; id = parent.get(id)) {
    const { url } = byId.get(id)!.callFrame;
    for (const [pattern, area] of AREAS) if (pattern.test(url)) return area;
  }
  return 'other';
}

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

function where(url: string): string {
  if (!url) return '(no script: idle, GC, native, program)';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const inModules = path.lastIndexOf('node_modules/');
  if (inModules >= 0) return path.slice(inModules);
  return path.startsWith(PROJECT_ROOT) ? relative(PROJECT_ROOT, path) : path;
}

/** Prints the areas, and the `top` files and functions by self time. */
export function summariseProfile(file: string, top = 15): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const byArea = new Map<string, number>();
  const selfByFile = new Map<string, number>();
  const selfByFunction = new Map<string, number>();
  let total = 0;
  for (const [i, id] of profile.samples.entries()) {
    const us = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node) continue;
    total += us;
    const area = areaOf(id, byId, parent);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
    const { functionName, url, lineNumber } = node.callFrame;
    const file = where(url);
    selfByFile.set(file, (selfByFile.get(file) ?? 0) + us);
    const fn = `${functionName || '(anonymous)'} ${url ? `${file}:${lineNumber + 1}` : ''}`.trim();
    selfByFunction.set(fn, (selfByFunction.get(fn) ?? 0) + us);
  }
  const rows = (m: Map<string, number>, most = top) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, most)
      .map(([k, us]) => [k, fmt(us / 1000, 0), fmt((100 * us) / total, 1)]);
  out();
  out(`server CPU profile ${file} (${fmt(total / 1e6, 1)} s sampled, main thread, measured window):`);
  out(table(['area', 'ms', '%'], rows(byArea, byArea.size), 1));
  out();
  out(table(['file', 'self ms', '%'], rows(selfByFile), 1));
  out();
  out(table(['function', 'self ms', '%'], rows(selfByFunction), 1));
}
