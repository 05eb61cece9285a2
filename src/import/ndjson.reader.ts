// Canonical NDJSON: one JSON object per line with the canonical CSV's fields, aliases an array.
import type { SchoolInput } from '../domain/school.draft.ts';
import { hasInvalidUtf8, type SourceReader, type SourceRow } from './source.ts';

const STRINGS = ['schoolname', 'city', 'stateprovince'] as const;
const NULLABLE = ['image_url', 'schoolid'] as const;
const KNOWN: ReadonlySet<string> = new Set([...STRINGS, ...NULLABLE, 'aliases', 'prominence']);

export const readNdjson: SourceReader = async function* (data, onProgress) {
  // Not fatal: a bad byte is reported with its line below instead of failing the whole decode.
  const lines = new TextDecoder('utf-8').decode(data).split('\n');
  for (const [index, raw] of lines.entries()) {
    if (index > 0 && index % 1000 === 0) onProgress(index / lines.length);
    const text = raw.trim();
    if (text === '') continue;
    yield toRow(index + 1, text);
  }
  onProgress(1);
};

function toRow(line: number, text: string): SourceRow {
  if (hasInvalidUtf8(text)) return { line, error: 'is not valid UTF-8' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { line, error: `is not valid JSON (${(error as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { line, error: 'is not a JSON object' };
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((k) => !KNOWN.has(k));
  if (unknown.length > 0) return { line, error: `unknown field(s) ${unknown.map((k) => `"${k}"`).join(', ')}` };
  for (const field of STRINGS) {
    if (record[field] === undefined) return { line, error: `${field} is missing` };
    if (typeof record[field] !== 'string') return { line, error: `${field} must be a string` };
  }
  for (const field of NULLABLE) {
    const v = record[field];
    if (v !== undefined && v !== null && typeof v !== 'string') return { line, error: `${field} must be a string or null` };
  }
  const aliases = record['aliases'];
  if (aliases !== undefined && aliases !== null && !(Array.isArray(aliases) && aliases.every((a) => typeof a === 'string'))) {
    return { line, error: 'aliases must be an array of strings' };
  }
  const prominence = record['prominence'];
  if (prominence !== undefined && prominence !== null && typeof prominence !== 'number') return { line, error: 'prominence must be a number or null' };
  const optional = (field: string) => (record[field] as string | null | undefined) ?? undefined;
  const input: SchoolInput = {
    schoolname: record['schoolname'] as string,
    city: record['city'] as string,
    stateprovince: record['stateprovince'] as string,
    image_url: optional('image_url'),
    schoolid: optional('schoolid'),
    aliases: (aliases as string[] | null | undefined) ?? undefined,
    prominence: (prominence as number | null | undefined) ?? undefined,
  };
  return { line, input };
}
