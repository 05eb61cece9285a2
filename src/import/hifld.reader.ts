// HIFLD's "Private Schools" layer (Homeland Infrastructure Foundation-Level Data, built from the
// NCES Private School Universe Survey) as a CSV: NCESID (the PSS id, PPIN), NAME, ADDRESS, CITY,
// STATE, ZIP, ZIP4, LATITUDE, LONGITUDE, STATUS, LEVEL_, START_GRAD, END_GRADE …, "NOT AVAILABLE"
// where a value is missing. A school is `pss:<PPIN>`, as from the PSS file itself (pss.reader.ts),
// so that either file updates the same schools.
import { levelFromGrades, type SchoolLevel } from '../domain/catalog/school-kind.ts';
import { headedRecords, missingColumns } from './csv-records.ts';
import { pssGrade } from './grades.ts';
import type { SourceReader, SourceRow } from './source.ts';

const REQUIRED = ['ncesid', 'name', 'city', 'state'] as const;

export const HIFLD_SKIPS = { closed: 'not open (HIFLD STATUS other than 1)' } as const;

const MISSING: ReadonlySet<string> = new Set(['', 'NOT AVAILABLE', '-999']);

/** PSS's LEVEL (HIFLD LEVEL_), where the grades do not give one: 1 elementary, 2 secondary, 3 combined. */
export const PSS_LEVELS: Readonly<Record<string, SchoolLevel>> = { '1': 'elementary', '2': 'high', '3': 'other' };

/** A HIFLD private-school header names NCESID and START_GRAD. */
export function isHifldHeader(columns: readonly string[]): boolean {
  const names = new Set(columns.map((c) => c.trim().toLowerCase()));
  return names.has('ncesid') && names.has('start_grad');
}

export const readHifld: SourceReader = async function* (utf8, onProgress) {
  const rows = headedRecords(utf8, onProgress, {
    relaxQuotes: true,
    columnName: (cell) => cell.trim().toLowerCase(),
    checkHeader: (columns) => missingColumns(columns, REQUIRED, 'not a HIFLD private schools file'),
  });
  for await (const item of rows) yield 'error' in item ? item : toRow(item.line, item.header, item.fields);
};

function toRow(line: number, header: ReadonlyMap<string, number>, fields: readonly string[]): SourceRow {
  const get = (column: string): string | undefined => {
    const index = header.get(column);
    const value = index === undefined ? undefined : fields[index]!.trim();
    return value === undefined || MISSING.has(value.toUpperCase()) ? undefined : value;
  };
  const ppin = get('ncesid') ?? '';
  if (!/^[A-Z0-9]{8}$/i.test(ppin)) return { line, error: `NCESID "${ppin}" is not an 8-character PSS id (PPIN)` };
  const status = get('status');
  if (status !== undefined && status !== '1') return { line, skip: HIFLD_SKIPS.closed };
  const lowest = pssGrade(get('start_grad'));
  const highest = pssGrade(get('end_grade'));
  // The layer stores ZIP codes as numbers: "03833" (Exeter, NH) arrives as "3833".
  const zip = get('zip')?.replace(/^\d{3,4}$/, (digits) => digits.padStart(5, '0'));
  const zip4 = get('zip4')?.replace(/^\d{1,3}$/, (digits) => digits.padStart(4, '0'));
  return {
    line,
    input: {
      schoolname: get('name') ?? '',
      city: get('city') ?? '',
      stateprovince: get('state') ?? '',
      address: get('address'),
      postal_code: zip && zip4 ? `${zip}-${zip4}` : zip,
      latitude: get('latitude'),
      longitude: get('longitude'),
      level: lowest && highest ? levelFromGrades(lowest, highest) : PSS_LEVELS[get('level_') ?? ''],
      lowest_grade: lowest,
      highest_grade: highest,
      type: 'private',
      sourceKey: `pss:${ppin.toUpperCase()}`,
    },
  };
}
