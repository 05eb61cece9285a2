// The page a search collects: the best documents offered so far, and the worst of them, so a walk
// over the matches knows when no later document can get in.

/**
 * The best `capacity` (document, key, distance) triples offered: higher key first, then shorter
 * distance (Infinity: unknown, or no `near`: then all are equal), then lower document. A
 * min-heap on that order, so its root is the worst kept.
 */
export class Heap {
  readonly capacity: number;
  readonly #docs: Int32Array;
  readonly #keys: Int32Array;
  readonly #distances: Float64Array;
  #size = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.#docs = new Int32Array(capacity);
    this.#keys = new Int32Array(capacity);
    this.#distances = new Float64Array(capacity);
  }

  get full(): boolean {
    return this.#size === this.capacity;
  }

  get worstKey(): number {
    return this.#keys[0]!;
  }

  get worstDoc(): number {
    return this.#docs[0]!;
  }

  get worstDistance(): number {
    return this.#distances[0]!;
  }

  /** a is worse than b. */
  #worse(a: number, b: number): boolean {
    const ka = this.#keys[a]!;
    const kb = this.#keys[b]!;
    if (ka !== kb) return ka < kb;
    const da = this.#distances[a]!;
    const db = this.#distances[b]!;
    return da > db || (da === db && this.#docs[a]! > this.#docs[b]!);
  }

  offer(doc: number, key: number, distance = Number.POSITIVE_INFINITY): void {
    if (this.#size < this.capacity) {
      let i = this.#size++;
      this.#docs[i] = doc;
      this.#keys[i] = key;
      this.#distances[i] = distance;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.#worse(i, parent)) break;
        this.#swap(i, parent);
        i = parent;
      }
      return;
    }
    const worstKey = this.#keys[0]!;
    if (key < worstKey) return;
    if (key === worstKey) {
      const worstDistance = this.#distances[0]!;
      if (distance > worstDistance || (distance === worstDistance && doc > this.#docs[0]!)) return;
    }
    this.#docs[0] = doc;
    this.#keys[0] = key;
    this.#distances[0] = distance;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < this.#size && this.#worse(l, worst)) worst = l;
      if (r < this.#size && this.#worse(r, worst)) worst = r;
      if (worst === i) break;
      this.#swap(i, worst);
      i = worst;
    }
  }

  #swap(a: number, b: number): void {
    const doc = this.#docs[a]!;
    const key = this.#keys[a]!;
    const distance = this.#distances[a]!;
    this.#docs[a] = this.#docs[b]!;
    this.#keys[a] = this.#keys[b]!;
    this.#distances[a] = this.#distances[b]!;
    this.#docs[b] = doc;
    this.#keys[b] = key;
    this.#distances[b] = distance;
  }

  sorted(): { doc: number; key: number }[] {
    const out: { doc: number; key: number; distance: number }[] = [];
    for (let i = 0; i < this.#size; i++)
      out.push({ doc: this.#docs[i]!, key: this.#keys[i]!, distance: this.#distances[i]! });
    out.sort((a, b) => b.key - a.key || (a.distance === b.distance ? a.doc - b.doc : a.distance < b.distance ? -1 : 1));
    return out.map(({ doc, key }) => ({ doc, key }));
  }
}
