// Summary of a scenario's CPU profile of the server (`npm run bench -- --cpu-prof DIR`): where
// its main thread spent the measured window, by file and by function (self time: the samples in
// which that code itself ran, not what it called).
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, out, table } from './format.ts';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

function where(url: string): string {
  if (!url) return '(no script: idle, GC, native, program)';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const inModules = path.lastIndexOf('node_modules/');
  if (inModules >= 0) return path.slice(inModules);
  return path.startsWith(PROJECT_ROOT) ? relative(PROJECT_ROOT, path) : path;
}

/** Prints the `top` files and functions by self time. */
export function summariseProfile(file: string, top = 15): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfByFile = new Map<string, number>();
  const selfByFunction = new Map<string, number>();
  let total = 0;
  for (const [i, id] of profile.samples.entries()) {
    const us = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node) continue;
    total += us;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = where(url);
    selfByFile.set(file, (selfByFile.get(file) ?? 0) + us);
    const fn = `${functionName || '(anonymous)'} ${url ? `${file}:${lineNumber + 1}` : ''}`.trim();
    selfByFunction.set(fn, (selfByFunction.get(fn) ?? 0) + us);
  }
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => [k, fmt(us / 1000, 0), fmt((100 * us) / total, 1)]);
  out();
  out(`server CPU profile ${file} (${fmt(total / 1e6, 1)} s sampled, main thread, measured window):`);
  out(table(['file', 'self ms', '%'], rows(selfByFile), 1));
  out();
  out(table(['function', 'self ms', '%'], rows(selfByFunction), 1));
}
