// Which reader a file needs: the one asked for, else the file name's, else the header's; and the
// encoding each format is read in when --encoding does not say.
import { extname } from 'node:path';
import { readCsv } from './csv.reader.ts';
import type { Encoding } from './encoding.ts';
import { UnknownFormatError } from './errors.ts';
import { isCcdHeader, readCcd } from './ccd.reader.ts';
import { isEdgeHeader } from './edge.reader.ts';
import { isHifldHeader, readHifld } from './hifld.reader.ts';
import { isIpedsHeader, readIpeds } from './ipeds.reader.ts';
import { readJsonArray } from './json.reader.ts';
import type { MappedSyntax } from './mapped.reader.ts';
import { readNdjson } from './ndjson.reader.ts';
import { isOdefHeader, readOdef } from './odef.reader.ts';
import { isPssHeader, readPss } from './pss.reader.ts';
import type { SourceReader } from './source.ts';

export const FORMATS = ['ipeds', 'odef', 'ccd', 'edge', 'pss', 'hifld', 'csv', 'ndjson', 'json'] as const;
export type ImportFormat = (typeof FORMATS)[number];

export const READERS: Readonly<Record<ImportFormat, SourceReader>> = {
  ipeds: readIpeds,
  odef: readOdef,
  ccd: readCcd,
  // An EDGE file names no school: edge-import.ts reads it, as locations of schools in the store.
  edge: async function* () {
    yield { line: 1, error: 'an EDGE geocode file adds locations to schools in the store: import it on its own' };
  },
  pss: readPss,
  hifld: readHifld,
  csv: readCsv,
  ndjson: readNdjson,
  json: readJsonArray,
};

/** The encoding each directory is distributed in: NCES and Statistics Canada publish Windows-1252. */
export const DEFAULT_ENCODINGS: Readonly<Record<ImportFormat, Encoding>> = {
  ipeds: 'windows-1252',
  odef: 'windows-1252',
  // UTF-8, checked strictly: a file in another encoding is refused with a hint, never misread.
  ccd: 'utf-8',
  edge: 'utf-8',
  pss: 'utf-8',
  hifld: 'utf-8',
  csv: 'utf-8',
  ndjson: 'utf-8',
  json: 'utf-8',
};

export function isFormat(value: string): value is ImportFormat {
  return (FORMATS as readonly string[]).includes(value);
}

/** The publisher's layout a header is in, if any. */
function directoryOf(columns: readonly string[]): ImportFormat | undefined {
  if (isIpedsHeader(columns)) return 'ipeds';
  if (isOdefHeader(columns)) return 'odef';
  if (isCcdHeader(columns)) return 'ccd';
  if (isEdgeHeader(columns)) return 'edge';
  if (isPssHeader(columns)) return 'pss';
  if (isHifldHeader(columns)) return 'hifld';
  return undefined;
}

/** `schools.ndjson.gz` is an NDJSON file (readInput decompresses it). */
const extensionOf = (path: string) => extname(path.replace(/\.gz$/i, '')).toLowerCase();

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
  const ext = extensionOf(path);
  if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
  if (ext === '.json') return 'json';
  const head = headOf(data);
  return head.startsWith('[') ? 'json' : head.startsWith('{') ? 'ndjson' : 'csv';
}

export function detectFormat(path: string, data: Buffer): ImportFormat {
  const ext = extensionOf(path);
  if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
  if (ext === '.json') return 'json';
  const head = headOf(data);
  // Directory files are named hd2022.csv, ODEF_v2_1.csv, ccd_sch_029_1920.csv like any CSV: only the header tells them apart.
  const columns = (head.split(/\r?\n/, 1)[0] ?? '').split(',').map((c) => c.replace(/"/g, ''));
  const directory = directoryOf(columns);
  if (ext === '.csv') return directory ?? 'csv';
  if (head.startsWith('[')) return 'json';
  if (head.startsWith('{')) return 'ndjson';
  if (directory) return directory;
  if (columns.map((c) => c.trim()).includes('schoolname')) return 'csv';
  throw new UnknownFormatError(
    `Cannot tell the format of ${path}: name it .csv, .ndjson, .jsonl or .json, or pass --format ${FORMATS.join('|')}.`,
  );
}
