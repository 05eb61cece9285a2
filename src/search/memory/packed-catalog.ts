// The catalog as the index build receives it, a batch at a time, packed as it arrives: one UTF-8
// buffer with the TEXT_FIELDS of every school of the batch, and one typed array per number
// (state, kind, prominence, coordinates). No object per school is kept: 150,000 schools as
// objects are ~85 MiB of V8 heap, packed they are ~25 MiB off the heap, they cross to the build
// worker without a copy (transferred), and their text becomes the index's own (catalog-view.ts).
// The build decodes a school's name, alternative names or city from its batch (build.ts).
import type { CatalogSchool } from '../../domain/catalog/catalog.ports.ts';
import { ALIAS_SEPARATOR, LOCATION_SEPARATOR, STATE_LIST, TEXT_FIELDS } from './index-data.ts';
import { packKind } from './kind-bits.ts';

const F = TEXT_FIELDS.length;
const STATE_INDEX = new Map(STATE_LIST.map((s, i) => [s, i]));

/** A batch of the catalog (or the whole of it), packed: what the index build reads. Typed arrays only (transferable between threads). */
export interface PackedCatalog {
  readonly count: number;
  /** TEXT_FIELDS of row r: text[textStart[r * F + f] .. textStart[r * F + f + 1]]. */
  readonly text: Uint8Array;
  readonly textStart: Uint32Array;
  /** Index into STATE_LIST of each row's state (0 when unknown). */
  readonly state: Uint8Array;
  /** kind-bits.ts of each row. */
  readonly kind: Uint32Array;
  readonly prominence: Float64Array;
  /** Each row's coordinates, NaN when unknown: the doubles given, so distances are the reference engine's to the bit. */
  readonly latitude: Float64Array;
  readonly longitude: Float64Array;
}

/** The `location` field of the packed text (index-data.ts): empty when neither is known. */
function packLocation(row: CatalogSchool): string {
  return row.address === undefined && row.postalCode === undefined
    ? ''
    : `${row.address ?? ''}${LOCATION_SEPARATOR}${row.postalCode ?? ''}`;
}

/**
 * A batch of schools, packed, in one buffer of its own: the batch crosses to the build worker as
 * one transfer, and is freed there as one block once read. (As an array each, a batch's smaller
 * arrays came from the worker's malloc arena, and 500 batches' worth of them freed in the middle
 * of it stayed in the process's RSS after the build: 65 MB at a million schools.)
 */
export function packCatalog(rows: readonly CatalogSchool[]): PackedCatalog {
  const n = rows.length;
  const fields = rows.map((row) => [
    row.id,
    row.name,
    row.city,
    row.imageUrl ?? '',
    row.aliases.join(ALIAS_SEPARATOR),
    packLocation(row),
  ]);
  // UTF-8 takes at most 3 bytes per UTF-16 code unit.
  let units = 0;
  for (const values of fields) for (const value of values) units += value.length;
  // Where the text is encoded before its size is known; the batch keeps a copy of its length.
  const scratch = new Uint8Array(3 * units);
  const encoder = new TextEncoder();
  const starts = new Uint32Array(n * F + 1);
  let length = 0;
  for (let r = 0; r < n; r++) {
    for (let f = 0; f < F; f++) {
      length += encoder.encodeInto(fields[r]![f]!, scratch.subarray(length)).written;
      starts[r * F + f + 1] = length;
    }
  }
  // Widest elements first, so that every array starts aligned.
  const buffer = new ArrayBuffer(3 * 8 * n + 4 * (n * F + 1) + 4 * n + n + length);
  let at = 0;
  const take = <T>(
    make: (buffer: ArrayBuffer, offset: number, length: number) => T,
    count: number,
    size: number,
  ): T => {
    const array = make(buffer, at, count);
    at += count * size;
    return array;
  };
  const f64 = (count: number) => take((b, o, l) => new Float64Array(b, o, l), count, 8);
  const prominence = f64(n);
  const latitude = f64(n);
  const longitude = f64(n);
  const textStart = take((b, o, l) => new Uint32Array(b, o, l), n * F + 1, 4);
  const kind = take((b, o, l) => new Uint32Array(b, o, l), n, 4);
  const state = take((b, o, l) => new Uint8Array(b, o, l), n, 1);
  const text = take((b, o, l) => new Uint8Array(b, o, l), length, 1);
  textStart.set(starts);
  text.set(scratch.subarray(0, length));
  rows.forEach((row, r) => {
    state[r] = STATE_INDEX.get(row.state) ?? 0;
    kind[r] = packKind(row);
    prominence[r] = row.prominence;
    latitude[r] = row.latitude ?? Number.NaN;
    longitude[r] = row.longitude ?? Number.NaN;
  });
  return { count: n, text, textStart, state, kind, prominence, latitude, longitude };
}

/** The rows of a packed catalog, decoded on demand. */
export class PackedRows {
  readonly count: number;
  readonly #p: PackedCatalog;
  readonly #text: Buffer;

  constructor(packed: PackedCatalog) {
    this.#p = packed;
    this.count = packed.count;
    this.#text = Buffer.from(packed.text.buffer, packed.text.byteOffset, packed.text.byteLength);
  }

  id(r: number): string {
    return this.#field(r, 0);
  }
  name(r: number): string {
    return this.#field(r, 1);
  }
  city(r: number): string {
    return this.#field(r, 2);
  }
  aliases(r: number): string[] {
    const joined = this.#field(r, 4);
    return joined ? joined.split(ALIAS_SEPARATOR) : [];
  }
  prominence(r: number): number {
    return this.#p.prominence[r]!;
  }

  /**
   * How rows a's and b's ids compare as strings (code units), mostly without decoding them: up
   * to the first byte that differs, the UTF-8 bytes are the same characters, and where both
   * differing bytes are ASCII, they order the strings as their code units do. Otherwise (a
   * character beyond ASCII, where UTF-8's order and UTF-16's can differ) the ids are decoded.
   */
  compareIds(a: number, b: number): number {
    const text = this.#text;
    const starts = this.#p.textStart;
    let i = starts[a * F]!;
    let j = starts[b * F]!;
    const iEnd = starts[a * F + 1]!;
    const jEnd = starts[b * F + 1]!;
    while (i < iEnd && j < jEnd && text[i] === text[j]) {
      i++;
      j++;
    }
    if (i === iEnd || j === jEnd) return iEnd - i - (jEnd - j);
    if (text[i]! < 0x80 && text[j]! < 0x80) return text[i]! - text[j]!;
    const x = this.id(a);
    const y = this.id(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }

  #field(r: number, f: number): string {
    const at = r * F + f;
    return this.#text.toString('utf8', this.#p.textStart[at]!, this.#p.textStart[at + 1]!);
  }
}
