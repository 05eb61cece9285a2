// The NCES Common Core of Data (CCD) public school directory, in either layout it is shipped in:
//   - NCES's own (`ccd_sch_029_<year>`): NCESSCH, SCH_NAME, LSTREET1, LCITY, LSTATE, LZIP, LZIP4,
//     SY_STATUS_TEXT, UPDATED_STATUS_TEXT, SCH_TYPE_TEXT, CHARTER_TEXT, GSLO, GSHI, LEVEL …;
//   - the Urban Institute Education Data Portal's extract: ncessch, school_name, city_location,
//     state_location, lowest_grade_offered, highest_grade_offered (and, in fuller extracts,
//     street_location, zip_location, latitude, longitude, charter).
// Column names are matched in any case. A school is `nces:<NCESSCH>`: the 12-digit id NCES keeps
// for the school across years, so re-importing a newer directory updates the same schools.
import { levelFromGrades, type SchoolLevel } from '../domain/catalog/school-kind.ts';
import { headedRecords } from './csv-records.ts';
import { ccdGrade } from './grades.ts';
import type { SourceReader, SourceRow } from './source.ts';

/** Rows left out on purpose: schools that are not operating in the directory's year. */
export const CCD_SKIPS = {
  closed: 'closed (CCD status Closed)',
  inactive: 'inactive this year (CCD status Inactive)',
  future: 'not open yet (CCD status Future)',
} as const;

/** The status columns' text (SY_STATUS_TEXT, UPDATED_STATUS_TEXT) and codes (SY_STATUS, UPDATED_STATUS) that skip a row. */
const SKIP_BY_STATUS: Readonly<Record<string, string>> = {
  closed: CCD_SKIPS.closed,
  inactive: CCD_SKIPS.inactive,
  future: CCD_SKIPS.future,
  '2': CCD_SKIPS.closed,
  '6': CCD_SKIPS.inactive,
  '7': CCD_SKIPS.future,
};

/** CCD's LEVEL, where the grades do not give one. */
const LEVEL_BY_TEXT: Readonly<Record<string, SchoolLevel>> = {
  elementary: 'elementary',
  primary: 'elementary',
  middle: 'middle',
  high: 'high',
  secondary: 'high',
  other: 'other',
};

/** Blanks and the Urban Institute's codes for missing (-1), not applicable (-2) and suppressed (-3). */
const MISSING: ReadonlySet<string> = new Set(['', '-1', '-2', '-3', 'M', 'N']);

/** NCES's layout names NCESSCH and SCH_NAME; the Urban Institute's ncessch and school_name. */
export function isCcdHeader(columns: readonly string[]): boolean {
  const names = new Set(columns.map((c) => c.trim().toLowerCase()));
  return names.has('ncessch') && (names.has('sch_name') || names.has('school_name'));
}

export const readCcd: SourceReader = async function* (utf8, onProgress) {
  const rows = headedRecords(utf8, onProgress, {
    relaxQuotes: true,
    columnName: (cell) => cell.trim().toLowerCase(),
    checkHeader: (columns) =>
      isCcdHeader(columns) ? undefined : 'not a CCD school directory: missing column(s) NCESSCH and SCH_NAME',
  });
  for await (const item of rows) yield 'error' in item ? item : toRow(item.line, item.header, item.fields);
};

function toRow(line: number, header: ReadonlyMap<string, number>, fields: readonly string[]): SourceRow {
  const get = (...columns: string[]): string | undefined => {
    for (const column of columns) {
      const index = header.get(column);
      const value = index === undefined ? undefined : fields[index]!.trim();
      if (value !== undefined && !MISSING.has(value)) return value;
    }
    return undefined;
  };
  const ncessch = get('ncessch') ?? '';
  // A spreadsheet may have dropped the leading zero of states 01–09 (Alabama … Connecticut).
  if (!/^\d{11,12}$/.test(ncessch)) return { line, error: `NCESSCH "${ncessch}" is not a 12-digit NCES school id` };
  const status = get('updated_status_text', 'sy_status_text', 'updated_status', 'sy_status')?.toLowerCase();
  const skip = status === undefined ? undefined : SKIP_BY_STATUS[status];
  if (skip) return { line, skip };
  const lowest = ccdGrade(get('gslo', 'lowest_grade_offered'));
  const highest = ccdGrade(get('gshi', 'highest_grade_offered'));
  const level = lowest && highest ? levelFromGrades(lowest, highest) : LEVEL_BY_TEXT[get('level')?.toLowerCase() ?? ''];
  const zip = get('lzip', 'zip_location');
  const zip4 = get('lzip4');
  const charter = get('charter_text', 'charter')?.toLowerCase();
  return {
    line,
    input: {
      schoolname: get('sch_name', 'school_name') ?? '',
      city: get('lcity', 'city_location') ?? '',
      stateprovince: get('lstate', 'state_location') ?? '',
      address: get('lstreet1', 'street_location'),
      postal_code: zip && zip4 ? `${zip}-${zip4}` : zip,
      latitude: get('latitude', 'latcod'),
      longitude: get('longitude', 'loncod'),
      level,
      lowest_grade: lowest,
      highest_grade: highest,
      type: 'public',
      tags: charter === 'yes' || charter === '1' ? ['charter'] : [],
      sourceKey: `nces:${ncessch.padStart(12, '0')}`,
    },
  };
}
