// The NCES Private School Universe Survey (PSS) public-use file, as a CSV (`pss<yyyy>_pu`): PPIN,
// PINST (name), PADDRS, PCITY, PSTABB, PZIP, PZIP4, and PL_ADD, PL_CIT, PL_STABB, PL_ZIP, PL_ZIP4
// where the school is not at its mailing address; LOGR<yyyy>, HIGR<yyyy> (grade codes),
// LATITUDE<yy>, LONGITUDE<yy>, LEVEL, RELIG … — the year in the names changes with each survey,
// so those columns are found by their prefix. A school is `pss:<PPIN>`, as from HIFLD.
import { levelFromGrades } from '../domain/catalog/school-kind.ts';
import { headedRecords, missingColumns } from './csv-records.ts';
import { pssGrade } from './grades.ts';
import { PSS_LEVELS } from './hifld.reader.ts';
import type { SourceReader, SourceRow } from './source.ts';

const REQUIRED = ['ppin', 'pinst', 'pcity', 'pstabb'] as const;

const MISSING: ReadonlySet<string> = new Set(['', '-1', '-2', '-3', '-9']);

/** A PSS header names PPIN and PINST. */
export function isPssHeader(columns: readonly string[]): boolean {
  const names = new Set(columns.map((c) => c.trim().toLowerCase()));
  return names.has('ppin') && names.has('pinst');
}

export const readPss: SourceReader = async function* (utf8, onProgress) {
  const rows = headedRecords(utf8, onProgress, {
    relaxQuotes: true,
    columnName: (cell) => cell.trim().toLowerCase(),
    checkHeader: (columns) => missingColumns(columns, REQUIRED, 'not a PSS public-use file'),
  });
  let yearly: Map<string, string> | undefined;
  for await (const item of rows) {
    if ('error' in item) {
      yield item;
      continue;
    }
    yearly ??= yearlyColumns(item.header);
    yield toRow(item.line, item.header, item.fields, yearly);
  }
};

/** The columns whose names carry the survey's year (`logr2020`, `latitude20`), by their prefix. */
function yearlyColumns(header: ReadonlyMap<string, number>): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of header.keys()) {
    const match = /^(logr|higr|latitude|longitude)\d{2,4}$/.exec(name);
    if (match && !found.has(match[1]!)) found.set(match[1]!, name);
  }
  return found;
}

function toRow(
  line: number,
  header: ReadonlyMap<string, number>,
  fields: readonly string[],
  yearly: ReadonlyMap<string, string>,
): SourceRow {
  const get = (column: string | undefined): string | undefined => {
    const index = column === undefined ? undefined : header.get(column);
    const value = index === undefined ? undefined : fields[index]!.trim();
    return value === undefined || MISSING.has(value) ? undefined : value;
  };
  const ppin = get('ppin') ?? '';
  if (!/^[A-Z0-9]{8}$/i.test(ppin)) return { line, error: `PPIN "${ppin}" is not an 8-character PSS id` };
  const lowest = pssGrade(get(yearly.get('logr')));
  const highest = pssGrade(get(yearly.get('higr')));
  // The physical location when the survey has one (PL_*), else the mailing address.
  const located = get('pl_add') !== undefined;
  const zip = get(located ? 'pl_zip' : 'pzip');
  const zip4 = get(located ? 'pl_zip4' : 'pzip4');
  return {
    line,
    input: {
      schoolname: get('pinst') ?? '',
      city: get(located ? 'pl_cit' : 'pcity') ?? get('pcity') ?? '',
      stateprovince: get(located ? 'pl_stabb' : 'pstabb') ?? get('pstabb') ?? '',
      address: get(located ? 'pl_add' : 'paddrs'),
      postal_code: zip && zip4 ? `${zip}-${zip4}` : zip,
      latitude: get(yearly.get('latitude')),
      longitude: get(yearly.get('longitude')),
      level: lowest && highest ? levelFromGrades(lowest, highest) : PSS_LEVELS[get('level') ?? ''],
      lowest_grade: lowest,
      highest_grade: highest,
      type: 'private',
      // RELIG 1: Catholic (the survey's P430 religious and P440 Roman Catholic).
      tags: get('relig') === '1' ? ['catholic'] : [],
      sourceKey: `pss:${ppin.toUpperCase()}`,
    },
  };
}
