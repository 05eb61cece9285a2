// The catalog as the index build receives it, packed as it arrives: one UTF-8 buffer with the
// TEXT_FIELDS of every school (in the order the schools came, which is the index's `order`),
// and one typed array per number (state, kind, prominence, coordinates). No object per school is kept: 150,000
// schools as objects are ~85 MiB of V8 heap in the build worker, packed they are ~25 MiB off the
// heap, and the packed text is the index's own (catalog.view.ts): nothing is copied at the end.
// The build decodes a school's name, alternative names or city when it needs them (build.ts).
import type { CatalogSchool } from '../../domain/search/engine.ts';
import { ALIAS_SEPARATOR, LOCATION_SEPARATOR, STATE_LIST, TEXT_FIELDS } from './index-data.ts';
import { packKind } from './kind-bits.ts';

const F = TEXT_FIELDS.length;
const STATE_INDEX = new Map(STATE_LIST.map((s, i) => [s, i]));

/** The catalog, packed: what buildIndex reads. Typed arrays only (transferable between threads). */
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

/** Packs rows batch by batch; done() hands the arrays over, trimmed to their length. */
export class CatalogPacker {
  readonly #encoder = new TextEncoder();
  #count = 0;
  #text = new Uint8Array(1 << 20);
  #textLength = 0;
  #textStart = new Uint32Array(1024 * F + 1);
  #state = new Uint8Array(1024);
  #kind = new Uint32Array(1024);
  #prominence = new Float64Array(1024);
  #latitude = new Float64Array(1024);
  #longitude = new Float64Array(1024);

  get count(): number {
    return this.#count;
  }

  add(rows: readonly CatalogSchool[]): void {
    this.#reserveRows(this.#count + rows.length);
    for (const row of rows) {
      const r = this.#count++;
      const fields = [
        row.id,
        row.name,
        row.city,
        row.imageUrl ?? '',
        row.aliases.join(ALIAS_SEPARATOR),
        packLocation(row),
      ];
      for (let f = 0; f < F; f++) {
        const value = fields[f]!;
        // UTF-8 takes at most 3 bytes per UTF-16 code unit.
        this.#reserveText(this.#textLength + value.length * 3);
        this.#textLength += this.#encoder.encodeInto(value, this.#text.subarray(this.#textLength)).written;
        this.#textStart[r * F + f + 1] = this.#textLength;
      }
      this.#state[r] = STATE_INDEX.get(row.state) ?? 0;
      this.#kind[r] = packKind(row);
      this.#prominence[r] = row.prominence;
      this.#latitude[r] = row.latitude ?? Number.NaN;
      this.#longitude[r] = row.longitude ?? Number.NaN;
    }
  }

  done(): PackedCatalog {
    const n = this.#count;
    return {
      count: n,
      text: this.#text.slice(0, this.#textLength),
      textStart: this.#textStart.slice(0, n * F + 1),
      state: this.#state.slice(0, n),
      kind: this.#kind.slice(0, n),
      prominence: this.#prominence.slice(0, n),
      latitude: this.#latitude.slice(0, n),
      longitude: this.#longitude.slice(0, n),
    };
  }

  // Growth by half again, not double: the text is the largest array, and its last growth is
  // what the trimmed copy in done() is made next to.
  #reserveText(bytes: number): void {
    if (bytes <= this.#text.length) return;
    const bigger = new Uint8Array(Math.max(bytes, Math.ceil(this.#text.length * 1.5)));
    bigger.set(this.#text.subarray(0, this.#textLength));
    this.#text = bigger;
  }

  #reserveRows(rows: number): void {
    if (rows <= this.#state.length) return;
    const capacity = Math.max(rows, Math.ceil(this.#state.length * 1.5));
    const grow = <T extends Uint8Array | Uint32Array | Float64Array>(a: T, length: number): T => {
      const bigger = new (a.constructor as new (n: number) => T)(length);
      bigger.set(a);
      return bigger;
    };
    this.#textStart = grow(this.#textStart, capacity * F + 1);
    this.#state = grow(this.#state, capacity);
    this.#kind = grow(this.#kind, capacity);
    this.#prominence = grow(this.#prominence, capacity);
    this.#latitude = grow(this.#latitude, capacity);
    this.#longitude = grow(this.#longitude, capacity);
  }
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

  #field(r: number, f: number): string {
    const at = r * F + f;
    return this.#text.toString('utf8', this.#p.textStart[at]!, this.#p.textStart[at + 1]!);
  }
}

/** A whole catalog at once (small catalogs, tests). */
export function packCatalog(rows: readonly CatalogSchool[]): PackedCatalog {
  const packer = new CatalogPacker();
  packer.add(rows);
  return packer.done();
}
