// Canonical NDJSON: one JSON object per line with the canonical CSV's fields, aliases and tags arrays,
// prominence and the coordinates numbers.
import type { SchoolInput } from '../domain/catalog/school-draft.ts';
import type { SourceReader, SourceRow } from './source.ts';

const STRINGS = ['schoolname', 'city', 'stateprovince'] as const;
const NULLABLE = [
  'image_url',
  'schoolid',
  'address',
  'postal_code',
  'level',
  'lowest_grade',
  'highest_grade',
  'type',
  // The school's key in its publisher's directory (`nces:010000500870`): the project's seed keeps it.
  'source_key',
] as const;
const NUMBERS = ['prominence', 'latitude', 'longitude'] as const;
const KNOWN: ReadonlySet<string> = new Set([...STRINGS, ...NULLABLE, ...NUMBERS, 'aliases', 'tags']);

// Line by line from the bytes: the whole file as one string and an array of its lines would be
// two more copies of it (50 MB of text for the project's seed) alive for the whole read.
export const readNdjson: SourceReader = async function* (utf8, onProgress) {
  const NEWLINE = 0x0a;
  let line = 0;
  for (let start = 0; ; ) {
    const newline = utf8.indexOf(NEWLINE, start);
    const end = newline < 0 ? utf8.length : newline;
    line++;
    if (line % 1000 === 0) onProgress(start / utf8.length);
    const text = utf8.toString('utf8', start, end).trim();
    start = end + 1;
    if (text !== '') yield toRow(line, text);
    if (newline < 0) break;
  }
  onProgress(1);
};

function toRow(line: number, text: string): SourceRow {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { line, error: `is not valid JSON (${(error as Error).message})` };
  }
  return { line, ...canonicalObject(value) };
}

/** A school from a JSON value with the canonical fields (an NDJSON line, an element of a JSON array), or why not. */
export function canonicalObject(value: unknown): { readonly input: SchoolInput } | { readonly error: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'is not a JSON object' };
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((k) => !KNOWN.has(k));
  if (unknown.length > 0) return { error: `unknown field(s) ${unknown.map((k) => `"${k}"`).join(', ')}` };
  for (const field of STRINGS) {
    if (record[field] === undefined) return { error: `${field} is missing` };
    if (typeof record[field] !== 'string') return { error: `${field} must be a string` };
  }
  for (const field of NULLABLE) {
    const v = record[field];
    if (v !== undefined && v !== null && typeof v !== 'string') return { error: `${field} must be a string or null` };
  }
  const aliases = record['aliases'];
  if (
    aliases !== undefined &&
    aliases !== null &&
    !(Array.isArray(aliases) && aliases.every((a) => typeof a === 'string'))
  ) {
    return { error: 'aliases must be an array of strings' };
  }
  const tags = record['tags'];
  if (tags !== undefined && tags !== null && !(Array.isArray(tags) && tags.every((t) => typeof t === 'string'))) {
    return { error: 'tags must be an array of strings' };
  }
  for (const field of NUMBERS) {
    const v = record[field];
    if (v !== undefined && v !== null && typeof v !== 'number') return { error: `${field} must be a number or null` };
  }
  const optional = (field: string) => (record[field] as string | null | undefined) ?? undefined;
  const number = (field: string) => (record[field] as number | null | undefined) ?? undefined;
  const input: SchoolInput = {
    schoolname: record['schoolname'] as string,
    city: record['city'] as string,
    stateprovince: record['stateprovince'] as string,
    image_url: optional('image_url'),
    schoolid: optional('schoolid'),
    aliases: (aliases as string[] | null | undefined) ?? undefined,
    prominence: number('prominence'),
    address: optional('address'),
    postal_code: optional('postal_code'),
    latitude: number('latitude'),
    longitude: number('longitude'),
    level: optional('level'),
    lowest_grade: optional('lowest_grade'),
    highest_grade: optional('highest_grade'),
    type: optional('type'),
    tags: (tags as string[] | null | undefined) ?? undefined,
    sourceKey: optional('source_key'),
  };
  return { input };
}
