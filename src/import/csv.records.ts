// CSV records with the line each starts on, for both CSV formats. csv-parse's own line count
// drifts after blank lines and quoted line breaks, so lines are counted here from the byte
// offset at which csv-parse says each record ended.
import { finished } from 'node:stream/promises';
import { parse } from 'csv-parse';

export type CsvItem =
  | { readonly line: number; readonly fields: readonly string[] }
  /** A syntax error (e.g. an unclosed quote): nothing after it can be read. */
  | { readonly line: number; readonly error: string };

export interface CsvOptions {
  /** Take a stray quote inside a field literally instead of failing (see the IPEDS reader). */
  relaxQuotes?: boolean;
}

const CHUNK = 64 * 1024;
const CR = 0x0d;
const LF = 0x0a;

/** `data` is UTF-8. Whitespace-only lines are skipped. */
export async function* csvRecords(
  data: Buffer,
  onProgress: (fraction: number) => void,
  options: CsvOptions = {},
): AsyncGenerator<CsvItem> {
  // on_record runs synchronously inside write(), before the error that stops the parser: every
  // record before a syntax error is seen, which the stream's async iterator does not guarantee.
  const parsed: Array<{ fields: string[]; end: number }> = [];
  const parser = parse({
    bom: true,
    relax_column_count: true,
    relax_quotes: options.relaxQuotes ?? false,
    skip_empty_lines: true,
    on_record: (fields: string[], context: { bytes: number }) => {
      parsed.push({ fields, end: context.bytes });
      return null;
    },
  });
  let failure: Error | undefined;
  parser.on('error', (error: Error) => (failure = error));

  let counted = 0;
  let line = 1;
  let end = 0;
  // The line of the first byte after `from` that is not a line break: where the next record starts.
  const startLine = (from: number): number => {
    let at = from;
    while (at < data.length && (data[at] === CR || data[at] === LF)) at++;
    for (; counted < at; counted++) if (data[counted] === LF) line++;
    return line;
  };
  function* drain(): Generator<CsvItem> {
    for (const record of parsed.splice(0)) {
      const at = startLine(end);
      end = record.end;
      if (record.fields.length === 1 && record.fields[0]!.trim() === '') continue;
      yield { line: at, fields: record.fields };
    }
  }

  for (let at = 0; at < data.length && !parser.errored; at += CHUNK) {
    parser.write(data.subarray(at, at + CHUNK));
    yield* drain();
    onProgress(Math.min(at + CHUNK, data.length) / data.length);
  }
  if (!parser.errored) {
    parser.end();
    parser.resume();
    await finished(parser).catch(() => undefined);
  }
  yield* drain();
  failure ??= parser.errored ?? undefined;
  if (failure) yield { line: startLine(end), error: `CSV syntax error: ${failure.message}` };
}
