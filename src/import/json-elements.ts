// The elements of a JSON array, one at a time, each with its 1-based index and the line it starts
// on: a directory exported as one pretty-printed array is as many rows as elements, not lines.
// @streamparser/json assembles one element at a time (keepStack: false), so a large array is
// never held as one parsed tree; its tokens carry byte offsets, from which the lines are counted.
import { Tokenizer, TokenParser, TokenType } from '@streamparser/json';

export type JsonElement =
  | { readonly element: number; readonly line: number; readonly value: unknown }
  /** The file is not a JSON array, or its JSON breaks off: nothing after it can be read. */
  | { readonly line: number; readonly error: string };

const CHUNK = 64 * 1024;
const LF = 0x0a;

/** `utf8` is the whole file, valid UTF-8. */
export function* jsonArrayElements(utf8: Buffer, onProgress: (fraction: number) => void): Generator<JsonElement> {
  const tokenizer = new Tokenizer();
  const parser = new TokenParser({ paths: ['$.*'], keepStack: false });
  const ready: Array<{ element: number; offset: number; value: unknown }> = [];
  let depth = 0;
  let tokens = 0;
  let lastOffset = 0;
  /** Where the element being read starts. */
  let start = 0;
  let notAnArray = false;

  // A UTF-8 byte order mark is not JSON: the tokenizer is given the bytes after it.
  const bom = utf8[0] === 0xef && utf8[1] === 0xbb && utf8[2] === 0xbf ? 3 : 0;
  tokenizer.onToken = (info) => {
    const offset = info.offset + bom;
    lastOffset = offset;
    if (tokens++ === 0 && info.token !== TokenType.LEFT_BRACKET) {
      notAnArray = true;
      throw new Error('not an array');
    }
    if (depth === 1 && info.token !== TokenType.COMMA && info.token !== TokenType.RIGHT_BRACKET) start = offset;
    if (info.token === TokenType.LEFT_BRACE || info.token === TokenType.LEFT_BRACKET) depth++;
    else if (info.token === TokenType.RIGHT_BRACE || info.token === TokenType.RIGHT_BRACKET) depth--;
    parser.write(info);
  };
  parser.onValue = ({ value, key }) => {
    ready.push({ element: (key as number) + 1, offset: start, value });
  };

  let line = 1;
  let counted = 0;
  const lineAt = (offset: number): number => {
    for (; counted < offset && counted < utf8.length; counted++) if (utf8[counted] === LF) line++;
    return line;
  };
  function* drain(): Generator<JsonElement> {
    for (const { element, offset, value } of ready.splice(0)) yield { element, line: lineAt(offset), value };
  }
  const failure = (error: unknown): JsonElement =>
    notAnArray
      ? { line: lineAt(lastOffset), error: 'is not a JSON array (a file that starts with "[" must be one)' }
      : { line: lineAt(lastOffset), error: `is not valid JSON (${(error as Error).message})` };

  for (let at = bom; at < utf8.length; at += CHUNK) {
    try {
      tokenizer.write(utf8.subarray(at, at + CHUNK));
    } catch (error) {
      yield* drain();
      yield failure(error);
      return;
    }
    yield* drain();
    onProgress(Math.min(at + CHUNK, utf8.length) / utf8.length);
  }
  try {
    tokenizer.end();
  } catch (error) {
    yield* drain();
    yield failure(error);
    return;
  }
  yield* drain();
  if (tokens === 0) yield { line: 1, error: 'is empty: a JSON array was expected' };
  else if (depth !== 0) yield { line: lineAt(utf8.length), error: 'is not valid JSON (the array is never closed)' };
}
