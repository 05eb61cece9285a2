// Any CSV, NDJSON or JSON-array file read through a column mapping (mapping.ts). Columns the
// mapping does not use are ignored, not errors, and listed once in the report; a field the
// mapping does not name is read from a column of its own name when the file has one.
import type { SchoolInput } from '../domain/catalog/school-draft.ts';
import { headedRecords } from './csv-records.ts';
import { jsonArrayElements } from './json-elements.ts';
import { type ColumnMapping, MAPPED_FIELDS, type MappedField, REQUIRED_FIELDS } from './mapping.ts';
import type { SourceReader } from './source.ts';

export const MAPPED_SYNTAXES = ['csv', 'ndjson', 'json'] as const;
export type MappedSyntax = (typeof MAPPED_SYNTAXES)[number];

export interface MappedReader {
  readonly read: SourceReader;
  /** The file's columns (or JSON fields) that no field was read from, in the order first met. */
  readonly unusedColumns: () => readonly string[];
}

const NUMBERS: ReadonlySet<MappedField> = new Set(['latitude', 'longitude', 'prominence']);

export function mappedReader(mapping: ColumnMapping, syntax: MappedSyntax): MappedReader {
  const unused = new Set<string>();
  const used = new Set<string>();
  const noteColumns = (names: Iterable<string>) => {
    for (const name of names) if (!used.has(name)) unused.add(name);
  };
  /** The column each field is read from, among `names`; explicitly mapped fields that are absent. */
  const resolve = (names: readonly string[]) => {
    const exact = new Set(names);
    const folded = new Map<string, string>();
    for (const name of names) if (!folded.has(name.trim().toLowerCase())) folded.set(name.trim().toLowerCase(), name);
    const columns = new Map<MappedField, string>();
    const absent: MappedField[] = [];
    for (const field of MAPPED_FIELDS) {
      const wanted = mapping.columns[field] ?? field;
      const column = exact.has(wanted) ? wanted : folded.get(wanted.trim().toLowerCase());
      if (column !== undefined) {
        columns.set(field, column);
        used.add(column);
        unused.delete(column);
      } else if (mapping.columns[field] !== undefined) absent.push(field);
    }
    return { columns, absent };
  };
  const wantedName = (field: MappedField) => `"${mapping.columns[field] ?? field}" (${field})`;

  const readCsv: SourceReader = async function* (utf8, onProgress) {
    let columns = new Map<MappedField, string>();
    const rows = headedRecords(utf8, onProgress, {
      columnName: (cell) => cell.trim(),
      checkHeader: (names) => {
        const resolved = resolve(names);
        columns = resolved.columns;
        noteColumns(names);
        const missing = [
          ...resolved.absent,
          ...REQUIRED_FIELDS.filter((f) => !columns.has(f) && !resolved.absent.includes(f)),
        ];
        if (missing.length === 0) return undefined;
        return `no column for ${missing.map(wantedName).join(', ')}; the header has ${names.map((n) => `"${n}"`).join(', ')}`;
      },
    });
    for await (const item of rows) {
      if ('error' in item) {
        yield item;
        continue;
      }
      const { line, header, fields } = item;
      const get = (field: MappedField): unknown => {
        const column = columns.get(field);
        const index = column === undefined ? undefined : header.get(column);
        return index === undefined ? undefined : fields[index];
      };
      yield { line, ...toInput(get, mapping) };
    }
  };

  const fromObject = (value: unknown): { readonly input: SchoolInput } | { readonly error: string } => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'is not a JSON object' };
    const record = value as Record<string, unknown>;
    const names = Object.keys(record);
    const { columns } = resolve(names);
    noteColumns(names);
    const missing = REQUIRED_FIELDS.filter((f) => !columns.has(f));
    if (missing.length > 0) return { error: `has no ${missing.map(wantedName).join(', ')}` };
    return toInput((field) => {
      const column = columns.get(field);
      return column === undefined ? undefined : record[column];
    }, mapping);
  };

  const readNdjson: SourceReader = async function* (utf8, onProgress) {
    const lines = utf8.toString('utf8').split('\n');
    for (const [index, raw] of lines.entries()) {
      if (index > 0 && index % 1000 === 0) onProgress(index / lines.length);
      const text = raw.trim();
      if (text === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        yield { line: index + 1, error: `is not valid JSON (${(error as Error).message})` };
        continue;
      }
      yield { line: index + 1, ...fromObject(value) };
    }
    onProgress(1);
  };

  const readJson: SourceReader = async function* (utf8, onProgress) {
    for (const item of jsonArrayElements(utf8, onProgress)) {
      if ('error' in item) yield item;
      else yield { line: item.line, element: item.element, ...fromObject(item.value) };
    }
  };

  const read = { csv: readCsv, ndjson: readNdjson, json: readJson }[syntax];
  return { read, unusedColumns: () => [...unused] };
}

/** The school in a row's values (CSV text, or any JSON value), or why the values cannot be one. */
function toInput(
  get: (field: MappedField) => unknown,
  mapping: ColumnMapping,
): { readonly input: SchoolInput } | { readonly error: string } {
  const values: Partial<Record<MappedField, string | number | readonly string[]>> = {};
  for (const field of MAPPED_FIELDS) {
    const value = get(field);
    if (value === undefined || value === null) continue;
    if (field === 'aliases' || field === 'tags') {
      if (typeof value === 'string') values[field] = value.split('|');
      else if (Array.isArray(value) && value.every((a) => typeof a === 'string')) values[field] = value;
      else return { error: `${field} must be text (separated by "|") or an array of strings` };
    } else if (typeof value === 'string') values[field] = value;
    else if (typeof value === 'number' && Number.isFinite(value))
      values[field] = NUMBERS.has(field) ? value : String(value);
    else return { error: `${field} must be ${NUMBERS.has(field) ? 'a number' : 'text'}, not ${JSON.stringify(value)}` };
  }
  const text = (field: MappedField) => values[field] as string | undefined;
  const sourceId = text('source_id')?.trim();
  return {
    input: {
      schoolname: text('schoolname') ?? '',
      city: text('city') ?? '',
      stateprovince: text('stateprovince') ?? '',
      address: text('address'),
      postal_code: text('postal_code'),
      latitude: values.latitude as number | string | undefined,
      longitude: values.longitude as number | string | undefined,
      prominence: values.prominence as number | string | undefined,
      aliases: values.aliases as readonly string[] | undefined,
      schoolid: text('schoolid'),
      image_url: text('image_url'),
      level: text('level'),
      lowest_grade: text('lowest_grade'),
      highest_grade: text('highest_grade'),
      type: text('type'),
      tags: values.tags as readonly string[] | undefined,
      sourceKey: sourceId && mapping.idPrefix ? `${mapping.idPrefix}:${sourceId}` : undefined,
    },
  };
}
