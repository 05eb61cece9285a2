// A file served the same to everyone (the dashboard's page, script and stylesheet, the contract
// as JSON): compressed once, at the best settings, in zlib's thread pool on its first request,
// and sent in the coding the request accepts from then on (uncompressed until then). Swagger UI's
// own files are served by serve-static, which compresses nothing; they are left so.
import zlib from 'node:zlib';
import type { Request, Response } from 'express';
import { wasHead } from '../middleware/head-as-get.ts';
import { type Coding, codingFor } from './accept-encoding.ts';
import { COMPRESS_MIN_BYTES } from './json-sender.ts';

export class Precompressed {
  readonly body: Buffer;
  #forms: Partial<Record<Coding, Buffer>> | undefined;
  #making = false;

  constructor(body: Buffer | string) {
    this.body = Buffer.isBuffer(body) ? body : Buffer.from(body);
  }

  /** Sends the body (headers already set but Content-Encoding, Vary and the length), compressed when it can be. */
  send(req: Request, res: Response): void {
    if (this.body.length < COMPRESS_MIN_BYTES) {
      res.send(this.body);
      return;
    }
    res.vary('Accept-Encoding');
    const coding = wasHead(req) ? undefined : codingFor(req.headers['accept-encoding']);
    const form = coding && this.#forms?.[coding];
    if (coding === undefined) {
      res.send(this.body);
      return;
    }
    if (form === undefined) {
      this.#make();
      res.send(this.body);
      return;
    }
    res.setHeader('Content-Encoding', coding);
    res.send(form);
  }

  /** Both forms, made once; the best each coding has (Brotli 11, gzip 9): a few ms for the largest file, once. */
  #make(): void {
    if (this.#making) return;
    this.#making = true;
    const body = this.body;
    zlib.brotliCompress(
      body,
      {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      },
      (brError, br) => {
        zlib.gzip(body, { level: 9 }, (gzipError, gzip) => {
          if (!brError && !gzipError) this.#forms = { br, gzip };
        });
      },
    );
  }
}
