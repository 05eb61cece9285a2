// The bytes of a file to import, decompressed when it is gzip (a directory as published, or the
// project's own compressed seed): every reader then sees the file's text, line numbers intact.
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { createGunzip, gunzip } from 'node:zlib';
import { decode, defaultEncoding, type Encoding } from './encoding.ts';
import { ImportError, ImportSourceError } from './errors.ts';

const gunzipAsync = promisify(gunzip);
// In 1 MiB pieces rather than zlib's 16 KiB: a sixty-fourth of the round trips through the
// thread pool, so the seed's 50 MB inflate faster (docs/runs/performance.md, Runs A–G), at no
// cost in memory (the whole output is kept anyway).
const inflate = (data: Buffer) => gunzipAsync(data, { chunkSize: 1 << 20 });

/** Whether `data` starts as every gzip member does (RFC 1952: 1f 8b). */
export function isGzip(data: Uint8Array): boolean {
  return data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b;
}

/** The file's bytes; a gzip file's decompressed on the thread pool, off the event loop. */
export async function readInput(path: string): Promise<Buffer> {
  const data = await readFile(path);
  return isGzip(data) ? inflate(data) : data;
}

/**
 * The first `bytes` bytes of a gzip file's text (fewer when it is shorter), inflated only as far
 * as that: enough to tell its format without inflating all of it (the seed's 50 MB) once more.
 */
export async function inflateHead(path: string, bytes: number): Promise<Buffer> {
  const file = createReadStream(path, { highWaterMark: 64 * 1024 });
  const inflater = createGunzip();
  file.once('error', (error) => inflater.destroy(error));
  file.pipe(inflater);
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of inflater as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= bytes) break;
    }
  } finally {
    file.destroy();
    inflater.destroy();
  }
  return Buffer.concat(chunks, length).subarray(0, bytes);
}

/** readInput for an import: a file that cannot be read is an ImportSourceError naming it. */
export async function importBytes(path: string): Promise<Buffer> {
  try {
    return await readInput(path);
  } catch (error) {
    throw new ImportSourceError(`Cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * The file's text as UTF-8 in the encoding asked for, else the format's default (defaultEncoding).
 * A file that is not in that encoding is refused whole (ImportError): no row of it can be trusted.
 */
export function importText(
  path: string,
  data: Buffer,
  asked: Encoding | undefined,
  formatDefault: Encoding,
): { encoding: Encoding; utf8: Buffer } {
  const encoding = asked ?? defaultEncoding(data, formatDefault);
  const decoded = decode(data, encoding);
  if (!decoded.ok) {
    throw new ImportError(
      path,
      decoded.problems,
      'The file is not UTF-8: if it is Windows-1252 or Latin-1, import it with --encoding windows-1252.',
    );
  }
  return { encoding, utf8: decoded.utf8 };
}
