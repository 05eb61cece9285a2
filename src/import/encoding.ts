// The character encodings a directory file may be in, and its bytes turned into UTF-8 for the
// readers. Two encodings cover the directories met so far: UTF-8 (the canonical formats) and
// Windows-1252 (NCES IPEDS, Statistics Canada ODEF). Latin-1 is read as Windows-1252, as the
// WHATWG Encoding Standard (TextDecoder) does: the two differ only in bytes 0x80–0x9F, which are
// control characters in Latin-1 and that no directory contains.
import { isAscii, isUtf8 } from 'node:buffer';
import type { RowProblem } from './errors.ts';

export const ENCODINGS = ['utf-8', 'windows-1252'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** What the help and errors show as the accepted names. */
export const ENCODING_NAMES = 'utf-8, windows-1252 or latin1';

/** Spellings people use that are not WHATWG labels. */
const SPELLINGS: Readonly<Record<string, string>> = {
  'latin-1': 'latin1',
  windows1252: 'windows-1252',
  'win-1252': 'windows-1252',
  win1252: 'windows-1252',
  'cp-1252': 'windows-1252',
};

/**
 * The encoding a user's name stands for, or undefined. Any WHATWG label of the two encodings
 * is accepted, case-insensitively: utf8, UTF-8; cp1252, windows-1252, latin1, iso-8859-1, ….
 */
export function parseEncoding(name: string): Encoding | undefined {
  const label = name.trim().toLowerCase();
  let encoding: string;
  try {
    encoding = new TextDecoder(SPELLINGS[label] ?? label).encoding;
  } catch {
    return undefined;
  }
  return (ENCODINGS as readonly string[]).includes(encoding) ? (encoding as Encoding) : undefined;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** A UTF-8 byte order mark is a declaration: it wins over a format's default encoding (not over --encoding). */
export function startsWithUtf8Bom(data: Buffer): boolean {
  return data.subarray(0, 3).equals(UTF8_BOM);
}

/**
 * The encoding a file is read in when --encoding does not say: UTF-8 when it starts with a byte
 * order mark, or when the format's default is Windows-1252 but the file is valid UTF-8 with
 * some non-ASCII text (a directory re-saved as UTF-8, as Statistics Canada's later ODEF builds
 * are). Windows-1252 text with accents is almost never valid UTF-8 ("é" alone is byte 0xE9,
 * which UTF-8 only allows before two continuation bytes), so the guess is safe; read as
 * Windows-1252, UTF-8 would turn "École" into "Ã‰cole" in every name without an error.
 */
export function defaultEncoding(data: Buffer, formatDefault: Encoding): Encoding {
  if (startsWithUtf8Bom(data) || formatDefault === 'utf-8') return 'utf-8';
  if (isAscii(data)) return formatDefault;
  return isUtf8(data) ? 'utf-8' : formatDefault;
}

export type Decoded =
  | { readonly ok: true; readonly utf8: Buffer }
  | { readonly ok: false; readonly problems: readonly RowProblem[] };

/**
 * The file's text as UTF-8 bytes, line breaks where they were (so line numbers hold). UTF-8 is
 * checked, never repaired: each line holding bytes that are not UTF-8 is a problem naming the
 * first bad byte, instead of a U+FFFD in a school's name.
 */
export function decode(data: Buffer, encoding: Encoding): Decoded {
  if (encoding === 'windows-1252')
    return { ok: true, utf8: Buffer.from(new TextDecoder('windows-1252').decode(data), 'utf8') };
  // isUtf8 checks as a fatal TextDecoder does (no overlong forms, no surrogates, nothing above
  // U+10FFFF), without making the 50 MB string a decoder would.
  if (isUtf8(data)) return { ok: true, utf8: data };
  const problems = invalidUtf8Lines(data);
  // Cannot happen (the check and the scan agree), but a file is never passed as valid on a disagreement.
  return { ok: false, problems: problems.length > 0 ? problems : [{ line: 1, reason: 'is not valid UTF-8' }] };
}

/** Every line with bytes that are not UTF-8, with the first such byte and its position in the line. */
function invalidUtf8Lines(data: Buffer): RowProblem[] {
  const problems: RowProblem[] = [];
  let line = 1;
  for (let start = 0; start < data.length; line++) {
    const newline = data.indexOf(0x0a, start);
    const end = newline === -1 ? data.length : newline;
    const bad = firstInvalidUtf8(data, start, end);
    if (bad !== -1) {
      const byte = data[bad]!.toString(16).toUpperCase().padStart(2, '0');
      problems.push({ line, reason: `is not valid UTF-8: byte ${bad - start + 1} of the line is 0x${byte}` });
    }
    start = end + 1;
  }
  return problems;
}

/**
 * The offset of the first byte in data[start, end) that does not begin a well-formed UTF-8
 * sequence (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), or -1.
 */
export function firstInvalidUtf8(data: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; ) {
    const b = data[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let length: number;
    let min: number;
    let max = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) [length, min] = [2, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [length, min, max] = [3, b === 0xe0 ? 0xa0 : 0x80, b === 0xed ? 0x9f : 0xbf];
    else if (b >= 0xf0 && b <= 0xf4) [length, min, max] = [4, b === 0xf0 ? 0x90 : 0x80, b === 0xf4 ? 0x8f : 0xbf];
    else return i;
    if (i + length > end) return i;
    const second = data[i + 1]!;
    if (second < min || second > max) return i;
    for (let k = 2; k < length; k++) if ((data[i + k]! & 0xc0) !== 0x80) return i;
    i += length;
  }
  return -1;
}
