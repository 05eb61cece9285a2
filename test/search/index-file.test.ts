// The persisted index (src/search/memory/index-file.ts), through real files in a temporary
// directory: a start whose file is of the catalog's version, of this store and of this format
// reads it instead of the catalog and answers exactly as a fresh build; every other file (none,
// another version, another store, another format, truncated, damaged) means a build, never a
// wrong answer, and the file is written again; a failed write is a warning while the index serves.
// Each case on this thread and in the build's worker thread (which writes the file itself).
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { CatalogChunk, CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import {
  INDEX_FORMAT,
  indexFileAt,
  type IndexFiles,
  type Refusal,
  type SaveOutcome,
} from '../../src/search/memory/index-file.ts';
import { MemorySearchEngine } from '../../src/search/memory/memory.engine.ts';
import { catalogOf, placedSchoolArb } from '../support/search-arbitraries.ts';

const CATALOG = catalogOf(fc.sample(placedSchoolArb, { numRuns: 400, seed: 41 }));
const QUERIES = ['saint mary', 'lincoln', 'univ', 'schol', 'ecole montreal', 'a&m', 'st marys college', 'pen'];

/** A catalog source like a store's: it counts its catalog reads. */
class Source {
  reads = 0;
  schools: readonly CatalogSchool[];
  version: string;
  constructor(schools: readonly CatalogSchool[], version = 'v1') {
    this.schools = schools;
    this.version = version;
  }
  async catalogVersion(): Promise<string> {
    return this.version;
  }
  async *readCatalog(): AsyncGenerator<CatalogChunk> {
    this.reads++;
    for (let i = 0; i < this.schools.length; i += 100)
      yield { kind: 'schools', schools: this.schools.slice(i, i + 100) };
    yield { kind: 'version', version: this.version };
  }
}

/** The file port of the engine, with what it said (reads refused, saves). */
function files(path: string, store = 'store-a') {
  const loads: Array<Refusal | 'read'> = [];
  const saves: SaveOutcome[] = [];
  let onSave: () => void = () => undefined;
  const port: IndexFiles = indexFileAt(path, async () => store, {
    onLoad: ({ refused }) => loads.push(refused ?? 'read'),
    onSave: (outcome) => {
      saves.push(outcome);
      onSave();
    },
  });
  return {
    port,
    loads,
    saves,
    /** Resolves once the next save ended (written or not). */
    nextSave: () => new Promise<void>((resolve) => (onSave = resolve)),
  };
}

async function answers(engine: MemorySearchEngine) {
  const out = [];
  for (const query of QUERIES)
    for (const stateCode of [undefined, 'MA']) {
      const page = await engine.search({ plan: planQuery(query), offset: 0, limit: 25, stateCode });
      out.push({
        total: page.total,
        hits: page.hits.map((h) => [h.school.id, h.school.name, h.score, h.school.latitude]),
      });
    }
  return out;
}

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'school-search-index-file-'));
  path = join(dir, 'store.db.index');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Starts an engine on `source` with `port`; with `saving`, waits until its build's file is written. */
async function started(source: Source, port: ReturnType<typeof files>, workerThreshold: number, saving = true) {
  const engine = new MemorySearchEngine(source, { refreshMs: 0, workerThreshold, indexFiles: port.port });
  const saved = port.nextSave();
  await engine.start();
  if (saving) await saved;
  return engine;
}

describe.each([
  ['on this thread', Number.POSITIVE_INFINITY],
  ['in the worker thread', 1],
])('the persisted index, built %s', (_where, workerThreshold) => {
  test('when there is no file, then the index is built and the file written; a start with it reads no catalog and answers exactly as the build', async () => {
    const fresh = new Source(CATALOG);
    const first = files(path);
    const built = await started(fresh, first, workerThreshold);
    expect(first.loads).toEqual(['missing']);
    expect(fresh.reads).toBe(1);
    expect(first.saves).toEqual([{ ok: true, path, bytes: statSync(path).size, ms: expect.any(Number) }]);
    expect(readdir(dir)).toEqual(['store.db.index']);
    const expected = await answers(built);
    built.close();

    const restarted = new Source(CATALOG);
    const second = files(path);
    const loaded = await started(restarted, second, workerThreshold, false);
    expect(second.loads).toEqual(['read']);
    expect(restarted.reads).toBe(0);
    expect(loaded.size).toBe(CATALOG.length);
    expect(await answers(loaded)).toEqual(expected);
    expect(expected.some((a) => a.total > 1)).toBe(true);
    loaded.close();
  });

  test('when the file is of another catalog version, then the index is built and the file written for the new one', async () => {
    await started(new Source(CATALOG, 'v1'), files(path), workerThreshold).then((e) => e.close());
    const changed = new Source(CATALOG.slice(0, 300), 'v2');
    const port = files(path);
    const engine = await started(changed, port, workerThreshold);
    expect(port.loads).toEqual(['version']);
    expect(changed.reads).toBe(1);
    expect(engine.size).toBe(300);
    engine.close();
    const again = files(path);
    const reloaded = await started(new Source(CATALOG.slice(0, 300), 'v2'), again, workerThreshold, false);
    expect(again.loads).toEqual(['read']);
    reloaded.close();
  });

  test('when the file is of another store, then the index is built', async () => {
    await started(new Source(CATALOG), files(path, 'store-a'), workerThreshold).then((e) => e.close());
    const other = new Source(CATALOG);
    const port = files(path, 'store-b');
    (await started(other, port, workerThreshold)).close();
    expect(port.loads).toEqual(['store']);
    expect(other.reads).toBe(1);
  });

  test('when the file is of another format, then the index is built', async () => {
    await started(new Source(CATALOG), files(path), workerThreshold).then((e) => e.close());
    patch(path, 4, (view) => view.setUint32(0, INDEX_FORMAT + 1, true));
    const source = new Source(CATALOG);
    const port = files(path);
    (await started(source, port, workerThreshold)).close();
    expect(port.loads).toEqual(['format']);
    expect(source.reads).toBe(1);
  });

  test('when the file is truncated, then the index is built', async () => {
    await started(new Source(CATALOG), files(path), workerThreshold).then((e) => e.close());
    writeFileSync(path, readFileSync(path).subarray(0, statSync(path).size - 1000));
    const source = new Source(CATALOG);
    const port = files(path);
    const engine = await started(source, port, workerThreshold);
    expect(port.loads).toEqual(['truncated']);
    expect(source.reads).toBe(1);
    expect(engine.size).toBe(CATALOG.length);
    engine.close();
  });

  test('when a byte of the arrays is flipped, then the checksum refuses the file and the index is built', async () => {
    const reference = await started(new Source(CATALOG), files(path), workerThreshold);
    const expected = await answers(reference);
    reference.close();
    const size = statSync(path).size;
    patch(path, Math.floor(size * 0.6), (view) => view.setUint8(0, view.getUint8(0) ^ 0x10));
    const source = new Source(CATALOG);
    const port = files(path);
    const engine = await started(source, port, workerThreshold);
    expect(port.loads).toEqual(['checksum']);
    expect(source.reads).toBe(1);
    expect(await answers(engine)).toEqual(expected);
    engine.close();
  });

  test('when a failed write left a temporary file, then a start ignores it and the next write removes it', async () => {
    const leftover = `${path}.tmp-999999999-0badf00d`;
    writeFileSync(leftover, 'half an index');
    const source = new Source(CATALOG);
    const port = files(path);
    (await started(source, port, workerThreshold)).close();
    expect(port.loads).toEqual(['missing']);
    expect(existsSync(leftover)).toBe(false);
    expect(readdir(dir)).toEqual(['store.db.index']);
  });

  test('when the file cannot be written, then the index serves anyway and the failure is told', async () => {
    // A directory that is a file: no write can succeed there, whoever runs the test (root too).
    writeFileSync(join(dir, 'not-a-dir'), '');
    const port = files(join(dir, 'not-a-dir', 'store.db.index'));
    const source = new Source(CATALOG);
    const engine = await started(source, port, workerThreshold);
    expect(port.saves).toEqual([
      { ok: false, error: expect.objectContaining({ message: expect.stringContaining('ENOTDIR') }) },
    ]);
    expect((await engine.search({ plan: planQuery('lincoln'), offset: 0, limit: 5 })).total).toBeGreaterThan(0);
    engine.close();
  });

  test('when an import changes the catalog, then the rebuilt index is written over the file', async () => {
    const source = new Source(CATALOG, 'v1');
    const port = files(path);
    const engine = await started(source, port, workerThreshold);
    source.schools = CATALOG.slice(100);
    source.version = 'v2';
    const saved = port.nextSave();
    expect(await engine.refresh()).toBe(true);
    await saved;
    engine.close();
    const again = files(path);
    const reloaded = await started(new Source(CATALOG.slice(100), 'v2'), again, workerThreshold, false);
    expect(again.loads).toEqual(['read']);
    expect(reloaded.size).toBe(CATALOG.length - 100);
    reloaded.close();
  });
});

test('a file that is not an index (empty, or of other bytes) is refused, not read', async () => {
  writeFileSync(path, '');
  const port = files(path);
  const source = new Source(CATALOG);
  (await started(source, port, Number.POSITIVE_INFINITY)).close();
  expect(port.loads).toEqual(['truncated']);
  writeFileSync(path, 'x'.repeat(4096));
  const again = files(path);
  (await started(new Source(CATALOG), again, Number.POSITIVE_INFINITY)).close();
  expect(again.loads).toEqual(['not an index']);
});

function readdir(at: string): string[] {
  return readdirSync(at).sort();
}

/** Changes the file's bytes at `offset` in place. */
function patch(file: string, offset: number, change: (view: DataView) => void): void {
  const bytes = readFileSync(file);
  change(new DataView(bytes.buffer, bytes.byteOffset + offset, 4));
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes.subarray(offset, offset + 4), 0, 4, offset);
  } finally {
    closeSync(fd);
  }
}
