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

export type HeadedItem =
  | { readonly line: number; readonly header: ReadonlyMap<string, number>; readonly fields: readonly string[] }
  | { readonly line: number; readonly error: string };

export interface HeaderRules extends CsvOptions {
  /** The key a header cell is known by (e.g. trimmed and lower-cased). */
  readonly columnName: (cell: string) => string;
  /** Why the header (its cells as keys) is refused, or undefined: a refused header ends the file. */
  readonly checkHeader: (columns: readonly string[]) => string | undefined;
}

/**
 * The data records of a CSV file whose first record is its header, each with the header's
 * column positions; the shared part of every CSV format's reader. A syntax error ends the
 * file; a record with another number of fields than the header is an error row of its own.
 */
export async function* headedRecords(
  data: Buffer,
  onProgress: (fraction: number) => void,
  rules: HeaderRules,
): AsyncGenerator<HeadedItem> {
  let header: Map<string, number> | undefined;
  // The header's own width, not the map's size: a header may repeat a column name.
  let width = 0;
  for await (const item of csvRecords(data, onProgress, rules)) {
    if ('error' in item) {
      yield item;
      return;
    }
    if (!header) {
      const columns = item.fields.map(rules.columnName);
      const problem = rules.checkHeader(columns);
      if (problem) {
        yield { line: item.line, error: problem };
        return;
      }
      width = columns.length;
      header = new Map(columns.map((name, i) => [name, i]));
      continue;
    }
    if (item.fields.length !== width) {
      yield { line: item.line, error: `has ${item.fields.length} fields; the header has ${width}` };
      continue;
    }
    yield { line: item.line, header, fields: item.fields };
  }
}

/** The refusal of a header that lacks any of `required`, or undefined. */
export function missingColumns(
  columns: readonly string[],
  required: readonly string[],
  what: string,
): string | undefined {
  const missing = required.filter((c) => !columns.includes(c));
  return missing.length > 0 ? `${what}: missing column(s) ${missing.join(', ')}` : undefined;
}
