// A column mapping: which column (or JSON field) of any file holds each of a school's fields, for
// directories in no layout the importer knows. Given on the command line
// (`--map schoolname=Facility_Name,city=City,stateprovince=Prov_Terr`) or as a JSON file of the
// same pairs (`--map-file`); docs/import.md describes both.
import { DomainError } from '../domain/shared/errors.ts';

/** The fields a mapping may fill, as the canonical formats name them. */
export const MAPPED_FIELDS = [
  'schoolname',
  'city',
  'stateprovince',
  'address',
  'postal_code',
  'latitude',
  'longitude',
  'aliases',
  'prominence',
  'schoolid',
  'image_url',
  'level',
  'lowest_grade',
  'highest_grade',
  'type',
  'tags',
  'source_id',
] as const;
export type MappedField = (typeof MAPPED_FIELDS)[number];

export const REQUIRED_FIELDS: readonly MappedField[] = ['schoolname', 'city', 'stateprovince'];

export interface ColumnMapping {
  /** The column of each field named; a field not named is read from a column of its own name, if any. */
  readonly columns: Readonly<Partial<Record<MappedField, string>>>;
  /**
   * The directory's name, for the ids made from source_id (`<id_prefix>:<value>`): one
   * directory's "1001" must not be another's.
   */
  readonly idPrefix?: string | undefined;
}

/** A mapping that cannot be used: a usage error (exit 2), found before the file is read. */
export class MappingError extends DomainError {
  readonly code = 'import_mapping';
}

const KEYS = `${MAPPED_FIELDS.join(', ')} and id_prefix`;

/** The pairs of `--map` ("field=Column,field=Column"), each option given in order. */
export function parseMapOption(values: readonly string[]): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const value of values) {
    for (const pair of value.split(',')) {
      if (pair.trim() === '') continue;
      const at = pair.indexOf('=');
      if (at <= 0) throw new MappingError(`--map takes field=Column pairs separated by commas, not "${pair}".`);
      pairs[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
    }
  }
  return pairs;
}

/** The pairs of a mapping file: one JSON object, `{ "schoolname": "Facility_Name", … }`. */
export function parseMapFile(text: string, path: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MappingError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MappingError(`${path} must hold one JSON object of "field": "Column" pairs.`);
  }
  const pairs: Record<string, string> = {};
  for (const [key, column] of Object.entries(value)) {
    if (typeof column !== 'string')
      throw new MappingError(`${path}: the value of "${key}" must be a column name (a string).`);
    pairs[key] = column;
  }
  return pairs;
}

/** The mapping the pairs describe (the command line's over the file's), or why it cannot be used. */
export function toMapping(pairs: Readonly<Record<string, string>>): ColumnMapping {
  const columns: Partial<Record<MappedField, string>> = {};
  let idPrefix: string | undefined;
  for (const [key, value] of Object.entries(pairs)) {
    const field = key.trim().toLowerCase();
    if (value.trim() === '') throw new MappingError(`The mapping gives "${key}" no column.`);
    if (field === 'id_prefix') idPrefix = value.trim();
    else if ((MAPPED_FIELDS as readonly string[]).includes(field)) columns[field as MappedField] = value;
    else throw new MappingError(`The mapping names "${key}", which is not a field: the fields are ${KEYS}.`);
  }
  if (columns.source_id !== undefined && idPrefix === undefined) {
    throw new MappingError(
      "source_id needs id_prefix, the directory's name (e.g. id_prefix=nces): ids made from two directories' numbers must not collide.",
    );
  }
  if (idPrefix !== undefined && !/^[a-z0-9][a-z0-9_.-]*$/i.test(idPrefix)) {
    throw new MappingError(`id_prefix "${idPrefix}" must be letters, digits, ".", "_" or "-".`);
  }
  return { columns, idPrefix: idPrefix?.toLowerCase() };
}
