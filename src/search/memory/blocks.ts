// Growing typed arrays for what the index build keeps per catalog row until the catalog's end,
// when lengths are known: values in blocks of a fixed size, never copied to grow (a doubling
// array holds its old and new copy while it grows, up to three times its length), and freed at
// once when read (ArrayBuffer#transfer(0) gives the memory back then, not at V8's next full
// collection). At a million schools these rows are tens of MB each.

/**
 * Bytes per block: 256 KiB, above glibc's mmap threshold (128 KiB in the Dockerfile and the
 * bench), so that a freed block goes back to the system, not to a malloc arena.
 */
const BLOCK_BYTES = 1 << 18;

type Typed = Uint8Array | Uint32Array | Float64Array;

export class Blocks<T extends Typed> {
  readonly #make: (length: number) => T;
  readonly #shift: number;
  readonly #mask: number;
  #blocks: T[] = [];
  #length = 0;

  constructor(make: (length: number) => T) {
    this.#make = make;
    this.#shift = Math.log2(BLOCK_BYTES / make(0).BYTES_PER_ELEMENT);
    this.#mask = (1 << this.#shift) - 1;
  }

  get length(): number {
    return this.#length;
  }

  push(value: number): void {
    const b = this.#length >>> this.#shift;
    if (b === this.#blocks.length) this.#blocks.push(this.#make(this.#mask + 1));
    this.#blocks[b]![this.#length & this.#mask] = value;
    this.#length++;
  }

  get(i: number): number {
    return this.#blocks[i >>> this.#shift]![i & this.#mask]!;
  }

  /** The values as one array of their length; the blocks are freed as they are copied. */
  take(): T {
    const out = this.#make(this.#length);
    this.#blocks.forEach((block, b) => {
      const from = b << this.#shift;
      out.set(block.subarray(0, Math.min(block.length, this.#length - from)), from);
      (block.buffer as ArrayBuffer).transfer(0);
    });
    this.#blocks = [];
    this.#length = 0;
    return out;
  }

  /** Gives the memory back now. */
  free(): void {
    for (const block of this.#blocks) (block.buffer as ArrayBuffer).transfer(0);
    this.#blocks = [];
    this.#length = 0;
  }
}

export const u8Blocks = () => new Blocks((n) => new Uint8Array(n));
export const u32Blocks = () => new Blocks((n) => new Uint32Array(n));
export const f64Blocks = () => new Blocks((n) => new Float64Array(n));

/** Gives a typed array's memory back now: it must be the only view of its buffer, and is empty after. */
export function release(array: Typed): void {
  (array.buffer as ArrayBuffer).transfer(0);
}
