// The index as a file (docs/search.md, "The persisted index"): what a start reads instead of the
// catalog when the file is of the catalog's version, of this store and of this format. One file:
//
//   0   "SSIX"            magic
//   4   u32 format        INDEX_FORMAT
//   8   u32 header bytes  the JSON header's length (padded with spaces to a multiple of 8)
//   12  u32 crc32         of every byte from 16 to the end (header and arrays)
//   16  header (JSON)     the key (store, version), the counts, each array's type, offset, length
//   …   the arrays        each at an offset that is a multiple of 8, zeros between
//
// Read as one ArrayBuffer, the arrays are typed views into it: no copy, no parse, and releasing
// the index (memory-index.ts) frees the one buffer. Written crash-safely: into a temporary file
// beside it, fsync-ed, renamed over the final name, the directory fsync-ed; a reader sees the
// old file or the new one, whole. Anything that does not match (missing, another version, another
// store, another format, truncated, a checksum that differs) reads as no file: the engine builds.
// crc32 rather than sha256: it guards against damage, not malice (the file is as trusted as the
// store beside it), and takes 13 ms over the seed's 46.6 MB against sha256's 34 ms (measured).
import { randomBytes } from 'node:crypto';
import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { IndexData } from './index-data.ts';

/**
 * The layout's version. Bump it whenever IndexData changes (an array added, removed, renamed or
 * of another type) or what build.ts puts in any array does (another order, another rule): a file
 * of another format is never read, so an old file cannot answer with the old semantics.
 */
// 2: each document's prominence and the id lookup (deltas, decision 0029); 3: names with their
// article last found and named in reading order too (terms, equality field 5: analysis.ts, readingOrder).
export const INDEX_FORMAT = 3;

const MAGIC = 0x58495353; // "SSIX", little-endian
const PREFIX = 16;
const ALIGN = 8;
/** A header longer than this is no header of ours (a few KB in fact). */
const MAX_HEADER = 1 << 20;
/** A temporary file older than this, or of a process that is gone, was left by a failed write. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/** What a file must say to be read: the store it is of and the catalog version it was built from. */
export interface IndexKey {
  /** The store's identity (the embedded store's application_id; MongoDB's address and database). */
  readonly store: string;
  readonly version: string;
}

/** Where an index is saved and under which key: plain data, so that the build's worker thread can write it. */
export interface IndexFileTarget {
  readonly path: string;
  readonly key: IndexKey;
}

/**
 * The port the engine takes (memory.engine.ts): where it finds the index of a version, and where
 * it saves one. The composition root gives it (src/composition/engine.ts); tests give their own.
 */
export interface IndexFiles {
  /** The saved index of the store's catalog at `version`, or undefined (then the engine builds). */
  load(version: string): Promise<IndexData | undefined>;
  /** Where an index of `version` is to be saved; undefined: not saved. */
  target(version: string): Promise<IndexFileTarget | undefined>;
  /** Told what became of a save (written, or why not: a warning, never fatal). */
  saved(outcome: SaveOutcome): void;
}

export type SaveOutcome = { ok: true; path: string; bytes: number; ms: number } | { ok: false; error: unknown };

type ArrayType = 'Uint8Array' | 'Uint16Array' | 'Uint32Array' | 'Int32Array' | 'Float64Array';

const TYPES: Record<
  ArrayType,
  { new (buffer: ArrayBuffer, offset: number, length: number): ArrayBufferView; BYTES_PER_ELEMENT: number }
> = {
  Uint8Array,
  Uint16Array,
  Uint32Array,
  Int32Array,
  Float64Array,
};

interface Header {
  readonly format: number;
  readonly store: string;
  readonly version: string;
  readonly counts: Record<string, number>;
  /** [name, type, byte offset from the file's start, length in elements] */
  readonly arrays: ReadonlyArray<readonly [string, ArrayType, number, number]>;
  readonly bytes: number;
}

const pad = (n: number) => (n + ALIGN - 1) & ~(ALIGN - 1);

/** The file's first bytes and the arrays' places in it. */
function layout(
  key: IndexKey,
  data: IndexData,
): { head: Uint8Array; arrays: Array<[number, Uint8Array]>; bytes: number } {
  const entries = Object.entries(data);
  const counts: Record<string, number> = {};
  const views: Array<[string, ArrayType, ArrayBufferView & { length: number }]> = [];
  for (const [name, value] of entries) {
    if (typeof value === 'number') counts[name] = value;
    else if (ArrayBuffer.isView(value) && value.constructor.name in TYPES)
      views.push([name, value.constructor.name as ArrayType, value as ArrayBufferView & { length: number }]);
    else throw new TypeError(`the index's ${name} cannot be saved`);
  }
  // The header's length depends on the offsets, which depend on its length: offsets are written
  // with room to spare (padded numbers), the header sized once.
  const draft = (start: number) => {
    let at = start;
    const arrays = views.map(([name, type, view]) => {
      const entry = [name, type, at, view.length] as const;
      at = pad(at + view.byteLength);
      return entry;
    });
    return { arrays, bytes: at };
  };
  const sized = JSON.stringify({ format: INDEX_FORMAT, ...key, counts, ...draft(Number.MAX_SAFE_INTEGER - 2 ** 40) });
  const headerBytes = pad(Buffer.byteLength(sized) + 64);
  const { arrays, bytes } = draft(PREFIX + headerBytes);
  const header: Header = { format: INDEX_FORMAT, ...key, counts, arrays, bytes };
  const head = new Uint8Array(PREFIX + headerBytes).fill(0x20);
  const json = Buffer.from(JSON.stringify(header));
  if (json.length > headerBytes) throw new Error('the index header outgrew its room');
  head.set(json, PREFIX);
  const prefix = new DataView(head.buffer);
  prefix.setUint32(0, MAGIC, true);
  prefix.setUint32(4, INDEX_FORMAT, true);
  prefix.setUint32(8, headerBytes, true);
  return {
    head,
    arrays: views.map(([, , view], i) => [
      arrays[i]![2],
      new Uint8Array(view.buffer, view.byteOffset, view.byteLength),
    ]),
    bytes,
  };
}

const ZEROS = new Uint8Array(ALIGN);

/**
 * Writes `data` as the index file of `target`, crash-safely. `written` is called once every byte
 * is in the temporary file, before the fsync and the rename: from then on `data` is not read
 * (the build's worker hands the arrays over there). Throws on any failure, the temporary file
 * removed.
 */
export async function writeIndexFile(
  target: IndexFileTarget,
  data: IndexData,
  written: () => void = () => undefined,
): Promise<{ bytes: number }> {
  let handedOver = false;
  const handOver = () => {
    if (handedOver) return;
    handedOver = true;
    written();
  };
  const temp = `${target.path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  let file: Awaited<ReturnType<typeof open>> | undefined;
  try {
    const { head, arrays, bytes } = layout(target.key, data);
    let crc = crc32(head.subarray(PREFIX));
    let at = head.length;
    for (const [offset, array] of arrays) {
      if (offset > at) crc = crc32(ZEROS.subarray(0, offset - at), crc);
      crc = crc32(array, crc);
      at = offset + array.length;
    }
    if (bytes > at) crc = crc32(ZEROS.subarray(0, bytes - at), crc);
    new DataView(head.buffer).setUint32(12, crc, true);
    await removeStaleTemps(target.path);
    file = await open(temp, 'wx', 0o600);
    await file.write(head, 0, head.length, 0);
    for (const [offset, array] of arrays) if (array.length > 0) await file.write(array, 0, array.length, offset);
    await file.truncate(bytes);
    handOver();
    await file.sync();
    await file.close();
    file = undefined;
    await rename(temp, target.path);
    await syncDirectory(dirname(target.path));
    return { bytes };
  } catch (error) {
    handOver();
    await file?.close().catch(() => undefined);
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** fsync of a directory, so that a rename in it survives a crash (where a directory can be opened: not on Windows). */
async function syncDirectory(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(dir, 'r');
  } catch {
    return;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Removes the temporary files a failed write left beside `path` (of a process that is gone, or old). */
export async function removeStaleTemps(path: string): Promise<void> {
  const dir = dirname(path);
  const prefix = `${basename(path)}.tmp-`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    const full = join(dir, name);
    const info = await stat(full).catch(() => undefined);
    if (!info) continue;
    if (!alive(pid) || Date.now() - info.mtimeMs > STALE_TEMP_MS)
      await rm(full, { force: true }).catch(() => undefined);
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Why a file was not read; `undefined` when it was. */
export type Refusal = 'missing' | 'truncated' | 'not an index' | 'format' | 'store' | 'version' | 'checksum';

/**
 * The index in the file at `path` if it is one of `key` and INDEX_FORMAT, whole and undamaged;
 * otherwise why not. One read into one ArrayBuffer; the arrays are views of it.
 */
export async function readIndexFile(path: string, key: IndexKey): Promise<{ data: IndexData } | { refused: Refusal }> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, 'r');
  } catch {
    return { refused: 'missing' };
  }
  let buffer: ArrayBuffer;
  try {
    const { size } = await file.stat();
    if (size < PREFIX) return { refused: 'truncated' };
    buffer = new ArrayBuffer(size);
    const bytes = new Uint8Array(buffer);
    for (let at = 0; at < size; ) {
      const { bytesRead } = await file.read(bytes, at, size - at, at);
      if (bytesRead === 0) return { refused: 'truncated' };
      at += bytesRead;
    }
  } finally {
    await file.close();
  }
  return parseIndexFile(buffer, key);
}

/** The index held in `buffer` (a whole file), as readIndexFile: views of `buffer`. */
export function parseIndexFile(buffer: ArrayBuffer, key: IndexKey): { data: IndexData } | { refused: Refusal } {
  const prefix = new DataView(buffer);
  if (buffer.byteLength < PREFIX || prefix.getUint32(0, true) !== MAGIC) return { refused: 'not an index' };
  if (prefix.getUint32(4, true) !== INDEX_FORMAT) return { refused: 'format' };
  const headerBytes = prefix.getUint32(8, true);
  if (headerBytes > MAX_HEADER || PREFIX + headerBytes > buffer.byteLength) return { refused: 'truncated' };
  let header: Header;
  try {
    header = JSON.parse(Buffer.from(buffer, PREFIX, headerBytes).toString('utf8')) as Header;
  } catch {
    return { refused: 'checksum' };
  }
  if (header.format !== INDEX_FORMAT) return { refused: 'format' };
  if (header.store !== key.store) return { refused: 'store' };
  if (header.version !== key.version) return { refused: 'version' };
  if (header.bytes !== buffer.byteLength) return { refused: 'truncated' };
  if (crc32(new Uint8Array(buffer, PREFIX)) !== prefix.getUint32(12, true)) return { refused: 'checksum' };
  const data: Record<string, unknown> = { ...header.counts };
  for (const [name, type, offset, length] of header.arrays) {
    const make = TYPES[type];
    // Checked so that a file of a bug of ours is refused, not a crash (the checksum says it is whole).
    if (!make || offset % ALIGN !== 0 || offset + length * make.BYTES_PER_ELEMENT > buffer.byteLength)
      return { refused: 'not an index' };
    data[name] = new make(buffer, offset, length);
  }
  return { data: data as unknown as IndexData };
}

/**
 * The IndexFiles of one file at `path`, for the store whose identity `store` reads (asked at
 * every load and save: a store file replaced under a running process has another).
 */
export function indexFileAt(
  path: string,
  store: () => Promise<string>,
  options: {
    onLoad?: (outcome: { path: string; refused?: Refusal; ms: number }) => void;
    onSave?: (outcome: SaveOutcome) => void;
  } = {},
): IndexFiles {
  return {
    async load(version) {
      const started = performance.now();
      const read = await readIndexFile(path, { store: await store(), version });
      options.onLoad?.({
        path,
        ...('refused' in read ? { refused: read.refused } : {}),
        ms: performance.now() - started,
      });
      return 'data' in read ? read.data : undefined;
    },
    async target(version) {
      return { path, key: { store: await store(), version } };
    },
    saved(outcome) {
      options.onSave?.(outcome);
    },
  };
}
