// The bytes of a file to import, decompressed when it is gzip (a directory as published, or the
// project's own compressed seed): every reader then sees the file's text, line numbers intact.
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

const inflate = promisify(gunzip);

/** Whether `data` starts as every gzip member does (RFC 1952: 1f 8b). */
export function isGzip(data: Uint8Array): boolean {
  return data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b;
}

/** The file's bytes; a gzip file's decompressed on the thread pool, off the event loop. */
export async function readInput(path: string): Promise<Buffer> {
  const data = await readFile(path);
  return isGzip(data) ? inflate(data) : data;
}
