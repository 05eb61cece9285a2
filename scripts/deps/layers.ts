// npm run deps:layers — the shape of src/ at the level of its rooms (a folder under src/, or a
// file directly in it), from dependency-cruiser's graph: how many rooms, how many arrows between
// them, and how many floors (the longest chain of arrows, counted in rooms). Fewer floors and
// arrows mean a tree that is easier to read and to change; `npm run lint:deps` checks the rules.
//
// Printed twice: with every import, and with the imports that load a module at run time only
// (dependency-cruiser marks `import type` and type-only specifiers `type-only`). A floor that
// only type-only imports make costs nothing at run time but still orders what must be read
// and changed first; the arrows that are type-only are listed under the first view.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

interface Cruised {
  readonly modules: ReadonlyArray<{
    readonly source: string;
    readonly dependencies: ReadonlyArray<{ readonly resolved: string; readonly dependencyTypes: readonly string[] }>;
  }>;
}

type Arrows = ReadonlyMap<string, ReadonlySet<string>>;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEPCRUISE = `${ROOT}node_modules/.bin/depcruise`;
const args = ['--config', '.dependency-cruiser.cjs', 'src', '--output-type', 'json'];
const graph = JSON.parse(execFileSync(DEPCRUISE, args, { cwd: ROOT, maxBuffer: 1 << 28 }).toString()) as Cruised;

/** A room of src/: a folder under it, or a file in it. */
const roomOf = (path: string): string | undefined => /^src\/[^/]+/.exec(path)?.[0];
/** A slice of the domain: a folder under src/domain, or a file in it. */
const sliceOf = (path: string): string | undefined => /^src\/domain\/[^/]+/.exec(path)?.[0];

/** Every room, and the arrows between rooms made by the imports `counts` keeps. */
function shape(
  counts: (dependencyTypes: readonly string[]) => boolean,
  roomOf: (path: string) => string | undefined,
): { rooms: Set<string>; arrows: Arrows } {
  const rooms = new Set<string>();
  const arrows = new Map<string, Set<string>>();
  for (const module of graph.modules) {
    const from = roomOf(module.source);
    if (!from) continue;
    rooms.add(from);
    for (const dependency of module.dependencies) {
      const to = roomOf(dependency.resolved);
      if (to && to !== from && counts(dependency.dependencyTypes))
        arrows.set(from, (arrows.get(from) ?? new Set()).add(to));
    }
  }
  return { rooms, arrows };
}

function floorsOf(rooms: ReadonlySet<string>, arrows: Arrows): Map<string, number> {
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
  return floor;
}

const name = (room: string): string => room.replace(/^src\/(domain\/)?/, '');

// Every arrow points to a lower floor by construction (a room's floor is one above the highest it
// imports), and a circle throws in floorsOf: the counts printed as 0 are checked, not assumed.
function print(where: string, title: string, rooms: ReadonlySet<string>, arrows: Arrows): void {
  const floor = floorsOf(rooms, arrows);
  const floors = Math.max(...floor.values());
  const arrowCount = [...arrows.values()].reduce((n, to) => n + to.size, 0);
  const upward = [...arrows].reduce(
    (n, [from, to]) => n + [...to].filter((room) => floor.get(room)! >= floor.get(from)!).length,
    0,
  );
  process.stdout.write(
    `${where}, ${title}: ${rooms.size} rooms, ${arrowCount} arrows between them, ${floors} floors, ${upward} arrows upward or level, 0 circles\n`,
  );
  for (let f = floors; f >= 1; f--) {
    const here = [...rooms].filter((room) => floor.get(room) === f).sort();
    process.stdout.write(`  floor ${f}: ${here.map(name).join(', ')}\n`);
  }
}

const every = (): boolean => true;
const loaded = (types: readonly string[]): boolean => !types.includes('type-only');
const all = shape(every, roomOf);
const runTime = shape(loaded, roomOf);

print('src/', 'every import', all.rooms, all.arrows);
const typeOnly = [...all.arrows]
  .flatMap(([from, to]) => [...to].filter((room) => !runTime.arrows.get(from)?.has(room)).map((room) => [from, room]))
  .map(([from, to]) => `${name(from!)} → ${name(to!)}`)
  .sort();
process.stdout.write(
  `  arrows made by type-only imports alone: ${typeOnly.length > 0 ? typeOnly.join(', ') : 'none'}\n`,
);
print('src/', 'run-time imports only', runTime.rooms, runTime.arrows);
const slices = shape(every, sliceOf);
print('src/domain/', 'its slices, every import', slices.rooms, slices.arrows);
for (const [from, to] of [...slices.arrows].sort(([a], [b]) => a.localeCompare(b)))
  process.stdout.write(`  ${name(from)} → ${[...to].map(name).sort().join(', ')}\n`);
