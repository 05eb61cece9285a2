// How a JSON answer of an operation reaches the wire: in the coding the request accepts
// (accept-encoding.ts), Brotli or gzip, from 1 KiB up; a search answer from the compressed form of
// its kept text, spliced (spliced-answers.ts), any other in zlib's thread pool, so that the event
// loop spends no time compressing. Why node:zlib and not the `compression` package, and the
// levels: docs/decisions/0028-compressed-answers.md.
import zlib from 'node:zlib';
import type { Request, Response } from 'express';
import { wasHead } from '../middleware/head-as-get.ts';
import { type Coding, codingFor } from './accept-encoding.ts';
import { BROTLI_WINDOW_BITS, SplicedAnswers } from './spliced-answers.ts';

/** Below this, an answer goes uncompressed: a problem, a token, a page of one school save a few hundred bytes at most. */
export const COMPRESS_MIN_BYTES = 1024;
/**
 * An answer compressed for one request only (a first-time search, a history page). Up to
 * SYNC_MAX_BYTES it is compressed on the event loop at the fastest levels, Brotli 1 or gzip 1:
 * ~40–50 µs for a page of 25 schools, less than the event loop spends merely setting up an
 * asynchronous zlib stream (~60 µs, before the pool's ~100 µs at Brotli 3), for answers about
 * 25 % larger than Brotli 3's; larger ones go to the thread pool at Brotli 3 / gzip 6
 * (docs/performance.md, "Compressed answers").
 */
const SYNC_MAX_BYTES = 64 * 1024;
const FAST_BROTLI_QUALITY = 1;
const FAST_GZIP_LEVEL = 1;
const BROTLI_QUALITY = 3;
const GZIP_LEVEL = 6;

export class JsonSender {
  readonly #spliced = new SplicedAnswers();

  /**
   * Writes the pieces as they are, or compressed, with the headers res.json gives (no ETag: app.ts)
   * and `Vary: Accept-Encoding`, corked into one write; a HEAD response gets the headers of the
   * uncompressed answer only (Node drops the body). `keptTail`: every piece after the first is
   * that kept answer's.
   */
  send(req: Request, res: Response, pieces: readonly string[], keptTail: object | undefined): void | Promise<void> {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.vary('Accept-Encoding');
    const coding = wasHead(req) ? undefined : codingFor(req.headers['accept-encoding']);
    let bytes = 0;
    for (const piece of pieces) bytes += Buffer.byteLength(piece);
    if (coding === undefined || bytes < COMPRESS_MIN_BYTES) return write(res, pieces, bytes, undefined);
    if (keptTail !== undefined && pieces.length > 1) {
      const spliced = this.#spliced.encoded(keptTail, pieces[0]!, () => pieces.slice(1).join(''), coding);
      if (spliced instanceof Promise)
        return spliced.then((made) =>
          made ? writeSpliced(res, made, coding) : compressed(res, pieces, bytes, coding),
        );
      if (spliced !== undefined) return writeSpliced(res, spliced, coding);
    }
    return compressed(res, pieces, bytes, coding);
  }
}

function writeSpliced(res: Response, buffers: readonly Buffer[], coding: Coding): void {
  let length = 0;
  for (const buffer of buffers) length += buffer.length;
  write(res, buffers, length, coding);
}

/** The answer compressed whole (small ones at once, larger ones in the thread pool); uncompressed should that fail. */
function compressed(res: Response, pieces: readonly string[], bytes: number, coding: Coding): void | Promise<void> {
  if (bytes <= SYNC_MAX_BYTES) {
    let result: Buffer;
    try {
      result = compressNow(coding, Buffer.from(pieces.join('')), bytes);
    } catch {
      return write(res, pieces, bytes, undefined);
    }
    return write(res, [result], result.length, coding);
  }
  return new Promise((resolve) => {
    compress(coding, Buffer.from(pieces.join('')), bytes, (error, result) => {
      if (error) write(res, pieces, bytes, undefined);
      else write(res, [result], result.length, coding);
      resolve();
    });
  });
}

function compressNow(coding: Coding, body: Buffer, bytes: number): Buffer {
  if (coding === 'gzip') return zlib.gzipSync(body, { level: FAST_GZIP_LEVEL });
  return zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: FAST_BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes,
    },
  });
}

function compress(coding: Coding, body: Buffer, bytes: number, done: (error: Error | null, result: Buffer) => void) {
  if (coding === 'gzip') zlib.gzip(body, { level: GZIP_LEVEL }, done);
  else
    zlib.brotliCompress(
      body,
      {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes,
        },
      },
      done,
    );
}

function write(res: Response, chunks: readonly (string | Buffer)[], length: number, coding: Coding | undefined): void {
  if (coding !== undefined) res.setHeader('Content-Encoding', coding);
  res.setHeader('Content-Length', length);
  res.cork();
  for (const chunk of chunks) res.write(chunk);
  res.end();
  res.uncork();
}
