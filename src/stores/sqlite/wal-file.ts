// Reads the write-ahead log beside a store file with plain file reads, never with SQLite: SQLite
// would take it for the file's own and copy it in, which is what must not happen when it belongs
// to another file. The format is SQLite's own (https://www.sqlite.org/fileformat2.html, "The
// Write-Ahead Log"). SQLite takes no lock on the log itself, so reading it here disturbs no
// connection (the store file is another matter: store-identity.ts, headerOf).
import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

/** What SQLite would take from the log: its committed frames, and the identities page 1 has in them. */
export interface WalContents {
  readonly pageSize: number;
  /** Frames SQLite would use (valid, up to the last commit frame). */
  readonly committedFrames: number;
  /** The identity (bytes 68–71 of page 1) of each committed page-1 frame, oldest first. */
  readonly pageOneIdentities: readonly number[];
}

const WAL_MAGIC = 0x377f0682;
const WAL_HEADER = 32;
const FRAME_HEADER = 24;
/** Where page 1 holds PRAGMA application_id. */
const IDENTITY_OFFSET = 68;
const NATIVE_BIG_ENDIAN = endianness() === 'BE';
/** Frames read at a time. */
const CHUNK_FRAMES = 64;

/**
 * The committed contents of the log at `walPath`, as SQLite's recovery reads them: a frame counts
 * when its salts are the header's and the checksum chain holds up to it, and only frames up to
 * the last commit frame are ever used. undefined when the file is missing, empty, or has no valid
 * header (SQLite then ignores it and starts the log over: nothing of it is replayed).
 */
export function readWal(walPath: string): WalContents | undefined {
  let fd: number;
  try {
    fd = openSync(walPath, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const header = Buffer.alloc(WAL_HEADER);
    if (readSync(fd, header, 0, WAL_HEADER, 0) < WAL_HEADER) return undefined;
    const magic = header.readUInt32BE(0);
    if ((magic & 0xfffffffe) >>> 0 !== WAL_MAGIC) return undefined;
    const bigEndian = (magic & 1) === 1;
    const pageSize = header.readUInt32BE(8);
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return undefined;
    const sum = checksum(header.subarray(0, 24), bigEndian, 0, 0);
    if (sum[0] !== header.readUInt32BE(24) || sum[1] !== header.readUInt32BE(28)) return undefined;
    const salts = header.subarray(16, 24);

    const frameSize = FRAME_HEADER + pageSize;
    const chunk = Buffer.alloc(frameSize * CHUNK_FRAMES);
    let [s0, s1] = sum;
    let frames = 0;
    let committedFrames = 0;
    const seen: number[] = [];
    let pageOneIdentities: number[] = [];
    read: for (let position = WAL_HEADER; ; ) {
      const read = readSync(fd, chunk, 0, chunk.length, position);
      const whole = Math.floor(read / frameSize);
      for (let i = 0; i < whole; i++) {
        const frame = chunk.subarray(i * frameSize, (i + 1) * frameSize);
        if (!frame.subarray(8, 16).equals(salts)) break read;
        [s0, s1] = checksum(frame.subarray(0, 8), bigEndian, s0, s1);
        [s0, s1] = checksum(frame.subarray(FRAME_HEADER), bigEndian, s0, s1);
        if (s0 !== frame.readUInt32BE(16) || s1 !== frame.readUInt32BE(20)) break read;
        frames++;
        if (frame.readUInt32BE(0) === 1) seen.push(frame.readUInt32BE(FRAME_HEADER + IDENTITY_OFFSET));
        // A commit frame (its database size is set): everything up to here is what SQLite uses.
        if (frame.readUInt32BE(4) !== 0) {
          committedFrames = frames;
          pageOneIdentities = [...seen];
        }
      }
      if (whole < CHUNK_FRAMES) break;
      position += read;
    }
    return { pageSize, committedFrames, pageOneIdentities };
  } finally {
    closeSync(fd);
  }
}

/**
 * SQLite's log checksum: over 32-bit words in the byte order the magic names, two sums each
 * adding the other (walChecksumBytes in SQLite's wal.c). Words in the machine's own order are
 * read as a typed array: a 4 MB log in milliseconds.
 */
function checksum(data: Buffer, bigEndian: boolean, first: number, second: number): [number, number] {
  // Sums kept as int32 (| 0): the same bits as SQLite's u32 sums, and V8 keeps them in registers.
  let s0 = first | 0;
  let s1 = second | 0;
  const n = data.length >>> 2;
  if (bigEndian === NATIVE_BIG_ENDIAN && data.byteOffset % 4 === 0) {
    const words = new Int32Array(data.buffer, data.byteOffset, n);
    for (let i = 0; i < n; i += 2) {
      s0 = (s0 + words[i]! + s1) | 0;
      s1 = (s1 + words[i + 1]! + s0) | 0;
    }
  } else {
    for (let i = 0; i < n; i += 2) {
      const a = bigEndian ? data.readInt32BE(i * 4) : data.readInt32LE(i * 4);
      const b = bigEndian ? data.readInt32BE(i * 4 + 4) : data.readInt32LE(i * 4 + 4);
      s0 = (s0 + a + s1) | 0;
      s1 = (s1 + b + s0) | 0;
    }
  }
  return [s0 >>> 0, s1 >>> 0];
}
