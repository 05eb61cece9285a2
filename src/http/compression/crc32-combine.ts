// The CRC-32 of two texts one after the other from the CRC of each, without reading them again:
// zlib's crc32_combine (polynomial arithmetic modulo the CRC's polynomial, reflected). A gzip
// answer spliced from a kept compressed tail (spliced-answers.ts) needs the CRC of the whole
// answer, and re-reading the kept ~10 KB tail on every request would cost more than the splice.

const POLY = 0xedb88320;

/** a * b modulo the polynomial (both reflected, x^0 in the top bit). */
function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^k) modulo the polynomial, for k in 0..31. */
const X2N: number[] = (() => {
  const table: number[] = [];
  let p = 0x40000000; // x^1
  table.push(p);
  for (let n = 1; n < 32; n++) {
    p = multModP(p, p);
    table.push(p);
  }
  return table;
})();

/** The operator that moves a CRC past `bytes` more bytes: x^(8 * bytes) modulo the polynomial. */
export function crcShift(bytes: number): number {
  let p = 0x80000000; // x^0
  let k = 3;
  for (let n = bytes; n > 0; n = Math.floor(n / 2), k++) if (n & 1) p = multModP(X2N[k & 31]!, p);
  return p;
}

/** The CRC of A then B, from A's CRC, B's CRC and crcShift(B's length). */
export function crcCombine(crcA: number, crcB: number, shiftB: number): number {
  return (multModP(shiftB, crcA) ^ crcB) >>> 0;
}
