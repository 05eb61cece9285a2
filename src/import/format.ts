// Which reader a file needs: the one asked for, else the file name's, else the header's; and the
// encoding each format is read in when --encoding does not say.
import { extname } from 'node:path';
import { readCsv } from './csv.reader.ts';
import type { Encoding } from './encoding.ts';
import { UnknownFormatError } from './errors.ts';
import { isIpedsHeader, readIpeds } from './ipeds.reader.ts';
import { readJsonArray } from './json.reader.ts';
import type { MappedSyntax } from './mapped.reader.ts';
import { readNdjson } from './ndjson.reader.ts';
import { isOdefHeader, readOdef } from './odef.reader.ts';
import type { SourceReader } from './source.ts';

export const FORMATS = ['ipeds', 'odef', 'csv', 'ndjson', 'json'] as const;
export type ImportFormat = (typeof FORMATS)[number];

export const READERS: Readonly<Record<ImportFormat, SourceReader>> = {
  ipeds: readIpeds,
  odef: readOdef,
  csv: readCsv,
  ndjson: readNdjson,
  json: readJsonArray,
};

/** The encoding each directory is distributed in: NCES and Statistics Canada publish Windows-1252. */
export const DEFAULT_ENCODINGS: Readonly<Record<ImportFormat, Encoding>> = {
  ipeds: 'windows-1252',
  odef: 'windows-1252',
  csv: 'utf-8',
  ndjson: 'utf-8',
  json: 'utf-8',
};

export function isFormat(value: string): value is ImportFormat {
  return (FORMATS as readonly string[]).includes(value);
}

/** The start of the file, byte order mark and leading whitespace aside. */
function headOf(data: Buffer): string {
  return data
    .subarray(0, 64 * 1024)
    .toString('latin1')
    .replace(/^\xEF\xBB\xBF/, '')
    .trimStart();
}

/** With a column mapping, only the syntax matters: JSON array, NDJSON or CSV. */
export function detectSyntax(path: string, data: Buffer): MappedSyntax {
  const ext = extname(path).toLowerCase();
  if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
  if (ext === '.json') return 'json';
  const head = headOf(data);
  return head.startsWith('[') ? 'json' : head.startsWith('{') ? 'ndjson' : 'csv';
}

export function detectFormat(path: string, data: Buffer): ImportFormat {
  const ext = extname(path).toLowerCase();
  if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
  if (ext === '.json') return 'json';
  const head = headOf(data);
  // IPEDS and ODEF files are named hd2022.csv, ODEF_v2_1.csv like any CSV: only the header tells them apart.
  const columns = (head.split(/\r?\n/, 1)[0] ?? '').split(',').map((c) => c.replace(/"/g, ''));
  const directory = isIpedsHeader(columns) ? 'ipeds' : isOdefHeader(columns) ? 'odef' : undefined;
  if (ext === '.csv') return directory ?? 'csv';
  if (head.startsWith('[')) return 'json';
  if (head.startsWith('{')) return 'ndjson';
  if (directory) return directory;
  if (columns.map((c) => c.trim()).includes('schoolname')) return 'csv';
  throw new UnknownFormatError(
    `Cannot tell the format of ${path}: name it .csv, .ndjson, .jsonl or .json, or pass --format ${FORMATS.join('|')}.`,
  );
}
