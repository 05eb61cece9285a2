// npm run deps:layers — the shape of src/ at the level of its rooms (a folder under src/, or a
// file directly in it), from dependency-cruiser's graph: how many rooms, how many arrows between
// them, and how many floors (the longest chain of arrows, counted in rooms). Fewer floors and
// arrows mean a tree that is easier to read and to change; `npm run lint:deps` checks the rules.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

interface Cruised {
  readonly modules: ReadonlyArray<{
    readonly source: string;
    readonly dependencies: ReadonlyArray<{ resolved: string }>;
  }>;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEPCRUISE = `${ROOT}node_modules/.bin/depcruise`;
const args = ['--config', '.dependency-cruiser.cjs', 'src', '--output-type', 'json'];
const graph = JSON.parse(execFileSync(DEPCRUISE, args, { cwd: ROOT, maxBuffer: 1 << 28 }).toString()) as Cruised;

const roomOf = (path: string): string | undefined => /^src\/[^/]+/.exec(path)?.[0];
const arrows = new Map<string, Set<string>>();
const rooms = new Set<string>();
for (const module of graph.modules) {
  const from = roomOf(module.source);
  if (!from) continue;
  rooms.add(from);
  for (const dependency of module.dependencies) {
    const to = roomOf(dependency.resolved);
    if (to && to !== from) arrows.set(from, (arrows.get(from) ?? new Set()).add(to));
  }
}

const floor = new Map<string, number>();
const floorOf = (room: string, path: readonly string[] = []): number => {
  if (path.includes(room)) throw new Error(`rooms in a cycle: ${[...path, room].join(' → ')}`);
  const known = floor.get(room);
  if (known !== undefined) return known;
  const below = [...(arrows.get(room) ?? [])].map((to) => floorOf(to, [...path, room]));
  const mine = 1 + Math.max(0, ...below);
  floor.set(room, mine);
  return mine;
};
for (const room of rooms) floorOf(room);

const floors = Math.max(...floor.values());
const arrowCount = [...arrows.values()].reduce((n, to) => n + to.size, 0);
process.stdout.write(`src/: ${rooms.size} rooms, ${arrowCount} arrows between them, ${floors} floors\n`);
for (let f = floors; f >= 1; f--) {
  const here = [...rooms].filter((room) => floor.get(room) === f).sort();
  process.stdout.write(`  floor ${f}: ${here.map((room) => room.slice(4)).join(', ')}\n`);
}
