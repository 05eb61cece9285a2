// Growing typed arrays for the index build, where lengths are known only at the end.

/** A growable array of 32-bit unsigned integers. */
export class U32 {
  data = new Uint32Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Uint32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }
  done(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}
