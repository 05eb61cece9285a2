// Which reader a file needs: the one asked for, else the file name's, else the header's.
import { extname } from 'node:path';
import { readCsv } from './csv.reader.ts';
import { UnknownFormatError } from './errors.ts';
import { isIpedsHeader, readIpeds } from './ipeds.reader.ts';
import { readNdjson } from './ndjson.reader.ts';
import type { SourceReader } from './source.ts';

export const FORMATS = ['ipeds', 'csv', 'ndjson'] as const;
export type ImportFormat = (typeof FORMATS)[number];

export const READERS: Readonly<Record<ImportFormat, SourceReader>> = { ipeds: readIpeds, csv: readCsv, ndjson: readNdjson };

export function isFormat(value: string): value is ImportFormat {
  return (FORMATS as readonly string[]).includes(value);
}

export function detectFormat(path: string, data: Buffer): ImportFormat {
  const ext = extname(path).toLowerCase();
  if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
  const head = data.subarray(0, 64 * 1024).toString('latin1').replace(/^\xEF\xBB\xBF/, '').trimStart();
  // IPEDS files are named hd2022.csv like any CSV: only the header tells them apart.
  const columns = (head.split(/\r?\n/, 1)[0] ?? '').split(',').map((c) => c.replace(/"/g, ''));
  if (ext === '.csv') return isIpedsHeader(columns) ? 'ipeds' : 'csv';
  if (head.startsWith('{')) return 'ndjson';
  if (isIpedsHeader(columns)) return 'ipeds';
  if (columns.map((c) => c.trim()).includes('schoolname')) return 'csv';
  throw new UnknownFormatError(`Cannot tell the format of ${path}: name it .csv, .ndjson or .jsonl, or pass --format ${FORMATS.join('|')}.`);
}
