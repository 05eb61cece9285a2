// Compressed search answers without compressing them again. A search answer is a head of its
// own — the request's `apirequest` record, unique to every request — then the kept answer's text
// (kept-answers.ts), the same for every asking while it stays kept. The text is compressed once
// per coding, off the event loop (zlib's thread pool), and kept beside the kept answer; every
// answer in that coding is then its head, stored uncompressed in the compressed stream, spliced
// in front of those kept bytes: no compression on the request's path at all (the figures:
// docs/performance.md, "Compressed answers").
//
// gzip: one member, whose deflate stream is a stored block (the head) and then the kept text's
// raw deflate blocks; the trailer's CRC-32 is combined from the head's and the kept one's.
// Brotli: a stream cannot be cut and joined where one likes (distances to the static dictionary
// depend on the position in the stream), so the kept text is compressed where it will stand:
// after as many bytes as the head has, of a filler it cannot refer to (bytes no UTF-8 text
// holds), ending in the head's last two bytes (the context of its first literals). The answer is
// then the stream's window-size bits, the head as an uncompressed meta-block, and the kept
// meta-blocks. Each such form is checked once, by decompressing it, before it is used.
import zlib from 'node:zlib';
import type { Coding } from './accept-encoding.ts';
import { crcCombine, crcShift } from './crc32-combine.ts';

/** gzip level of a kept text: compressed once, so the best (9 costs about what 6 does on JSON). */
const GZIP_LEVEL_KEPT = 9;
/**
 * Brotli quality of a kept text: 5. 6 to 9 make answers within 0.3 % of its size at up to twice
 * its time; 10 and 11 (10 % smaller) use the distance cache across the filler's meta-block and
 * fail the check for most answers.
 */
const BROTLI_QUALITY_KEPT = 5;
/**
 * Brotli's window: 256 KiB, more than the largest answer (a page of 100 schools is ~45 KB). The
 * default, 4 MiB, makes every encoder allocate its ring buffer for nothing.
 */
export const BROTLI_WINDOW_BITS = 18;
/** Askings of a kept answer in a coding compressed whole before its form is made. */
const ASKINGS_BEFORE_FORM = 2;
/** Heads of a kept answer a Brotli form is made for (one per length of head and last two bytes); others are compressed whole. */
const BROTLI_FORMS_MAX = 4;
/** The longest head a Brotli form is made for (an uncompressed meta-block of four nibbles). */
const BROTLI_HEAD_MAX = 16 * 1024;

interface GzipTail {
  readonly deflated: Buffer;
  readonly crc: number;
  readonly shift: number;
  readonly length: number;
}

interface BrotliTail {
  /** The head it was made for: its length and last two bytes. */
  readonly headLength: number;
  readonly context: number;
  /** The stream's first bits (WBITS), and how many. */
  readonly wbits: number;
  readonly wbitsLength: number;
  readonly blocks: Buffer;
}

/** A form: made, being made (in the thread pool), or failed (its answers are compressed whole). */
type Form<T> = T | Promise<T | undefined> | 'failed';

interface BrotliForm {
  readonly headLength: number;
  readonly context: number;
  form: Form<BrotliTail>;
}

interface Forms {
  gzip: Form<GzipTail> | undefined;
  readonly brotli: BrotliForm[];
  /** How often this kept answer was asked in each coding before its form: a form is made from the third asking on. */
  readonly asked: Map<Coding, number>;
}

/** Buffers to write one after the other; a promise of them while their kept form is being made; undefined: compress it whole. */
export type Spliced = Buffer[] | Promise<Buffer[] | undefined> | undefined;

export class SplicedAnswers {
  readonly #forms = new WeakMap<object, Forms>();

  /**
   * The answer `head` + `tail()` in `coding`, spliced from the compressed form of the tail kept
   * beside `kept`. The first two askings in a coding get undefined (compress it whole); the third
   * has the form made and waits for it (about what compressing the answer whole at Brotli 5 costs,
   * once); so do the askings meanwhile. Undefined when no form can be made for it.
   */
  encoded(kept: object, head: string, tail: () => string, coding: Coding): Spliced {
    let forms = this.#forms.get(kept);
    if (forms === undefined) {
      forms = { gzip: undefined, brotli: [], asked: new Map() };
      this.#forms.set(kept, forms);
    }
    // Most kept answers are asked once or twice (a typeahead's prefixes): those askings are
    // compressed whole at the fastest level (json-sender.ts, ~50 µs), and only an answer asked a
    // third time in a coding earns the kept form, which costs about eight of those to make.
    const asked = forms.asked.get(coding) ?? 0;
    if (asked < ASKINGS_BEFORE_FORM) {
      forms.asked.set(coding, asked + 1);
      return undefined;
    }
    const headBytes = Buffer.from(head);
    return coding === 'gzip' ? this.#gzip(forms, headBytes, tail) : this.#brotli(forms, headBytes, tail);
  }

  #gzip(forms: Forms, head: Buffer, tail: () => string): Spliced {
    if (head.length > 0xffff) return undefined;
    if (forms.gzip === undefined) {
      const text = Buffer.from(tail());
      forms.gzip = new Promise<GzipTail | undefined>((resolve) =>
        zlib.deflateRaw(text, { level: GZIP_LEVEL_KEPT }, (error, deflated) => {
          const made = error
            ? undefined
            : { deflated, crc: zlib.crc32(text), shift: crcShift(text.length), length: text.length };
          forms.gzip = made ?? 'failed';
          resolve(made);
        }),
      );
    }
    return spliced(forms.gzip, (made) => gzipSpliced(head, made));
  }

  #brotli(forms: Forms, head: Buffer, tail: () => string): Spliced {
    const context = contextOf(head);
    let entry = forms.brotli.find((f) => f.headLength === head.length && f.context === context);
    if (entry === undefined) {
      if (head.length < 2 || head.length > BROTLI_HEAD_MAX || forms.brotli.length >= BROTLI_FORMS_MAX) return undefined;
      const made = brotliTailFor(head, Buffer.from(tail())).then(
        (form) => form,
        () => undefined,
      );
      const created: BrotliForm = { headLength: head.length, context, form: made };
      entry = created;
      forms.brotli.push(created);
      void made.then((form) => {
        // A form that failed its check keeps its slot: its answers are compressed whole.
        created.form = form ?? 'failed';
      });
    }
    return spliced(entry.form, (made) => brotliSpliced(head, made));
  }
}

function spliced<T>(form: Form<T>, splice: (made: T) => Buffer[]): Spliced {
  if (form === 'failed') return undefined;
  if (form instanceof Promise) return form.then((made) => (made === undefined ? undefined : splice(made)));
  return splice(form);
}

/** The gzip header: deflate, no name, no time, unknown OS (RFC 1952). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

function gzipSpliced(head: Buffer, kept: GzipTail): Buffer[] {
  const n = head.length;
  const first = Buffer.allocUnsafe(GZIP_HEADER.length + 5 + n);
  GZIP_HEADER.copy(first, 0);
  // A stored block, not the last (BFINAL 0, BTYPE 00, then byte-aligned): LEN, NLEN, the bytes.
  let at = GZIP_HEADER.length;
  first[at++] = 0;
  first.writeUInt16LE(n, at);
  first.writeUInt16LE(~n & 0xffff, at + 2);
  head.copy(first, at + 4);
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crcCombine(zlib.crc32(head), kept.crc, kept.shift), 0);
  trailer.writeUInt32LE((n + kept.length) >>> 0, 4);
  return [first, kept.deflated, trailer];
}

function brotliSpliced(head: Buffer, kept: BrotliTail): Buffer[] {
  return [uncompressedMetaBlock(head, kept.wbits, kept.wbitsLength), head, kept.blocks];
}

/**
 * The stream's WBITS then the header of an uncompressed meta-block of the head's length (RFC 7932
 * 9.2: ISLAST 0, MNIBBLES 4, MLEN-1, ISUNCOMPRESSED 1), padded to a byte: the head's bytes follow.
 */
function uncompressedMetaBlock(head: Buffer, wbits: number, wbitsLength: number): Buffer {
  const bits = wbitsLength + 20;
  const value = wbits | ((head.length - 1) << (wbitsLength + 3)) | (1 << (wbitsLength + 19));
  const out = Buffer.allocUnsafe(Math.ceil(bits / 8));
  for (let i = 0; i < out.length; i++) out[i] = (value >>> (8 * i)) & 0xff;
  return out;
}

function contextOf(head: Buffer): number {
  return head.length < 2 ? -1 : (head[head.length - 2]! << 8) | head[head.length - 1]!;
}

/** The tail's meta-blocks as they stand after a head of this length and last two bytes; undefined when the check fails. */
async function brotliTailFor(head: Buffer, text: Buffer): Promise<BrotliTail | undefined> {
  const encoder = zlib.createBrotliCompress({
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY_KEPT,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: head.length + text.length,
    },
  });
  const chunks: Buffer[] = [];
  encoder.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    encoder.once('end', resolve);
    encoder.once('error', reject);
  });
  encoder.write(fillerFor(head));
  await new Promise<void>((resolve) => encoder.flush(zlib.constants.BROTLI_OPERATION_FLUSH, () => resolve()));
  const start = Buffer.concat(chunks);
  chunks.length = 0;
  encoder.end(text);
  await ended;
  const wbitsLength = !(start[0]! & 1) ? 1 : (start[0]! >> 1) & 7 ? 4 : 7;
  const kept: BrotliTail = {
    headLength: head.length,
    context: contextOf(head),
    wbits: start[0]! & ((1 << wbitsLength) - 1),
    wbitsLength,
    blocks: Buffer.concat(chunks),
  };
  const whole = Buffer.concat(brotliSpliced(head, kept));
  const back = await new Promise<Buffer | undefined>((resolve) =>
    zlib.brotliDecompress(whole, (error, result) => resolve(error ? undefined : result)),
  );
  return back?.equals(Buffer.concat([head, text])) ? kept : undefined;
}

/**
 * Bytes no UTF-8 text holds (0xC0, 0xC1, 0xF5 to 0xFF), no four of them twice in a row, so that the
 * encoder finds nothing in them to refer to or to repeat (a repeat would change the distances it
 * remembers), then the head's last two bytes.
 */
function fillerFor(head: Buffer): Buffer {
  const filler = Buffer.allocUnsafe(head.length);
  FILLER.copy(filler, 0, 0, head.length - 2);
  head.copy(filler, head.length - 2, head.length - 2);
  return filler;
}

const FILLER: Buffer = (() => {
  const symbols = [0xc0, 0xc1, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff];
  const out = Buffer.alloc(BROTLI_HEAD_MAX);
  const seen = new Set<number>();
  let state = 1;
  for (let i = 0; i < out.length; i++) {
    let pick = 0;
    for (let tries = 0; tries < symbols.length; tries++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      pick = symbols[(state >>> 16) % symbols.length]!;
      if (i < 3) break;
      const gram = (out[i - 3]! << 24) | (out[i - 2]! << 16) | (out[i - 1]! << 8) | pick;
      if (!seen.has(gram)) {
        seen.add(gram);
        break;
      }
    }
    out[i] = pick;
  }
  return out;
})();
