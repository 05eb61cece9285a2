// Statistics Canada's Open Database of Educational Facilities (ODEF, v2.1) CSV exactly as
// distributed: Windows-1252 (read.ts decodes it first), quoted CSV, one row per facility, ".."
// where a value is not available, province codes in lower case ("qc").
//
// Which school a row is: a facility its provider identifies (Provider and Source_Id both given)
// is `odef:<Provider>:<Source_Id>`, stable across ODEF releases, which renumber Index. Without a
// Source_Id, the name, city and province decide, as for the canonical formats: so a provider
// listing one school twice under two spellings ("Pierre de Coubertin", "Pierre-De-Coubertin",
// both Montréal, QC) gives one school, the later row winning (read.ts), while two facilities of
// one name and city that their provider tells apart by id stay two schools.
import { headedRecords, missingColumns } from './csv-records.ts';
import { odefKind } from './odef-kind.ts';
import type { SourceReader, SourceRow } from './source.ts';

/** The columns every ODEF file has, lower case (ODEF writes them Title_Case); the others are optional. */
const REQUIRED = ['facility_name', 'city', 'prov_terr'] as const;

/** Statistics Canada's "not available" and "not applicable" symbols, and blanks. */
const MISSING: ReadonlySet<string> = new Set(['', '..', '...']);

/** Province and territory codes by Statistics Canada's PRUID: where Prov_Terr is missing. */
const PROVINCE_BY_PRUID: Readonly<Record<string, string>> = {
  '10': 'NL',
  '11': 'PE',
  '12': 'NS',
  '13': 'NB',
  '24': 'QC',
  '35': 'ON',
  '46': 'MB',
  '47': 'SK',
  '48': 'AB',
  '59': 'BC',
  '60': 'YT',
  '61': 'NT',
  '62': 'NU',
};

/** An ODEF header names Facility_Name and Prov_Terr. */
export function isOdefHeader(columns: readonly string[]): boolean {
  const names = new Set(columns.map((c) => c.trim().toLowerCase()));
  return names.has('facility_name') && names.has('prov_terr');
}

export const readOdef: SourceReader = async function* (utf8, onProgress) {
  // relaxQuotes: a quote inside an unquoted name (École "Le Phare") is taken literally.
  const rows = headedRecords(utf8, onProgress, {
    relaxQuotes: true,
    columnName: (cell) => cell.trim().toLowerCase(),
    checkHeader: (columns) => missingColumns(columns, REQUIRED, 'not an ODEF file'),
  });
  for await (const item of rows) yield 'error' in item ? item : toRow(item.line, item.header, item.fields);
};

function toRow(line: number, header: ReadonlyMap<string, number>, fields: readonly string[]): SourceRow {
  /** The column's value, trimmed; undefined when the column is absent or the value missing. */
  const get = (column: string): string | undefined => {
    const index = header.get(column);
    const value = index === undefined ? undefined : fields[index]!.trim();
    return value === undefined || MISSING.has(value) ? undefined : value;
  };
  const provider = get('provider');
  const sourceId = get('source_id');
  const street = [get('street_no'), get('street_name')].filter((part) => part !== undefined).join(' ');
  const province = get('prov_terr') ?? PROVINCE_BY_PRUID[get('pruid') ?? ''] ?? '';
  const kind = odefKind(get, get('facility_type'), get('olms_status'), province.toUpperCase());
  return {
    line,
    input: {
      schoolname: get('facility_name') ?? '',
      // CSDNAME, the census subdivision (the municipality), where City is missing.
      city: get('city') ?? get('csdname') ?? '',
      stateprovince: province,
      address: get('full_addr') ?? (street || undefined),
      postal_code: postalCode(get('postal_code')),
      latitude: get('latitude'),
      longitude: get('longitude'),
      ...kind,
      prominence: odefProminence(get('facility_type')),
      sourceKey: provider !== undefined && sourceId !== undefined ? `odef:${provider}:${sourceId}` : undefined,
    },
  };
}

/** Canadian postal codes as Canada Post writes them ("h1x2y4" → "H1X 2Y4"); anything else as given. */
function postalCode(value: string | undefined): string | undefined {
  const compact = value?.toUpperCase().replace(/\s+/g, '');
  return compact && /^[A-Z]\d[A-Z]\d[A-Z]\d$/.test(compact) ? `${compact.slice(0, 3)} ${compact.slice(3)}` : value;
}

/**
 * ODEF has nothing that ranks a flagship (no size, no research) but the kind of institution:
 * universities 50 and public colleges 25 (IPEDS's flagships reach 100), every school 0. Among
 * equally good matches a university then comes before a school of its name: "laval" is
 * Université Laval before the Collège Laval or a school called Laval, "mcgill" McGill University
 * before McGill Elementary. Private institutions and centres stay 0: ISCED4Plus alone would rank
 * adult-education centres and beauty schools.
 */
const ODEF_PROMINENCE: Readonly<Record<string, number>> = {
  university: 50,
  université: 50,
  constituante: 50,
  'organisme décernant des grades universitaires': 50,
  cégep: 25,
  'junior college': 25,
  'collège régional': 25,
  'campus collégial': 25,
  'collège constituant': 25,
};

export function odefProminence(facilityType: string | undefined): number {
  return ODEF_PROMINENCE[facilityType?.toLowerCase() ?? ''] ?? 0;
}
