// The NCES IPEDS "HD" directory file exactly as NCES distributes it (Windows-1252, CRLF, quoted
// CSV, one row per institution, blank text fields holding a single space). read.ts decodes it
// (Windows-1252 unless --encoding says otherwise) before this reader sees it.
import { collegeAliases } from './college-aliases.ts';
import { headedRecords, missingColumns } from './csv-records.ts';
import type { SourceReader, SourceRow } from './source.ts';

const REQUIRED = ['UNITID', 'INSTNM', 'CITY', 'STABBR'] as const;

export const IPEDS_SKIPS = {
  administrative: 'administrative unit (SECTOR=0)',
  inactive: 'not active in the current year (CYACTIVE=3)',
} as const;

/** An IPEDS header names UNITID and INSTNM (older years in lower case). */
export function isIpedsHeader(columns: readonly string[]): boolean {
  const names = new Set(columns.map((c) => c.trim().toUpperCase()));
  return names.has('UNITID') && names.has('INSTNM');
}

/**
 * IALIAS holds alternative names separated by `|`, `;` or `,` ("Penn, U of PA, UPenn"), or by
 * runs of spaces where the form field was padded ("UAH  University of Alabama Huntsville"). A
 * comma inside one name ("Rutgers, The State University of New Jersey") splits it into two
 * aliases, each still a name the school is known by.
 */
export function splitAliases(field: string | undefined): string[] {
  return (field ?? '')
    .split(/[|;,]|\s{2,}/)
    .map((a) => a.trim())
    .filter((a) => a.length > 0);
}

/**
 * The static rank of an institution, 0–100, from columns of the directory, so that among equally
 * good matches the flagship comes before its namesakes ("purdue university" → the West Lafayette
 * campus before Purdue Global; "university of texas" → Austin before Arlington):
 *   size (INSTSIZE 1–5)                                  6 points each, up to 30
 *   research, HD2022 and earlier (Carnegie 2021 basic,   R1 30, R2 22, doctoral/professional 15,
 *     C21BASIC)                                          master's 8, baccalaureate 4
 *   research, HD2024 on (Carnegie 2025 research          R1 30, R2 22, research colleges and
 *     designation, CARNEGIERSCH, when C21BASIC is gone)  universities 15
 *   selectivity (Carnegie 2021 undergraduate, C21UGPRF)  more selective 10, selective 5
 *   main campus (OPEID ending in 00; branches 0)         15
 *   level (ICLEVEL)                                      four-year 15, two-year 8
 * Unknown or not applicable values (-1, -2) give no points. The 2025 classification's other
 * columns (C00CARNEGIE, CARNEGIESAEC, CARNEGIEALF, …) are not read: their codes are not documented
 * beside the file (../shared/data/SOURCES.md documents CARNEGIERSCH only), and a guessed code is
 * a wrong rank. So an HD2024 row has no selectivity points and no master's or baccalaureate ones:
 * Harvard 90 instead of 100, every R1 main campus of size 5 the same 90.
 */
export function ipedsProminence(get: (column: string) => string | undefined): number {
  const n = (column: string) => Number(get(column) ?? NaN);
  const size = n('INSTSIZE');
  const opeid = get('OPEID') ?? '';
  const level = n('ICLEVEL');
  const points =
    (size >= 1 && size <= 5 ? size * 6 : 0) +
    (get('C21BASIC') === undefined ? research2025(n('CARNEGIERSCH')) : research2021(n('C21BASIC'))) +
    selectivity2021(n('C21UGPRF')) +
    (/^\d{8}$/.test(opeid) && opeid.endsWith('00') ? 15 : 0) +
    (level === 1 ? 15 : level === 2 ? 8 : 0);
  return points;
}

/** Research points from the Carnegie 2021 basic classification (C21BASIC). */
function research2021(carnegie: number): number {
  if (carnegie === 15) return 30;
  if (carnegie === 16) return 22;
  if (carnegie === 17) return 15;
  if (carnegie >= 18 && carnegie <= 20) return 8;
  if (carnegie >= 21 && carnegie <= 23) return 4;
  return 0;
}

/** Research points from the Carnegie 2025 research designation (CARNEGIERSCH: 1 R1, 2 R2, 3 research colleges and universities). */
function research2025(designation: number): number {
  return designation === 1 ? 30 : designation === 2 ? 22 : designation === 3 ? 15 : 0;
}

/** Selectivity points from the Carnegie 2021 undergraduate profile (C21UGPRF); none without it. */
function selectivity2021(profile: number): number {
  return profile === 14 || profile === 15 ? 10 : [8, 9, 12, 13].includes(profile) ? 5 : 0;
}

/** CONTROL: 1 public, 2 private not-for-profit, 3 private for-profit; -3 (not available) says nothing. */
const CONTROL_TAGS: Readonly<Record<string, string[]>> = {
  '1': ['public_control'],
  '2': ['private_control'],
  '3': ['private_control', 'for_profit'],
};

export const readIpeds: SourceReader = async function* (utf8, onProgress) {
  // relaxQuotes: NCES leaves quotes inside quoted fields unescaped (HD2022 line 1410, a URL with
  // hl="veteran"); such a field is then read as it stands, quotes and all.
  const rows = headedRecords(utf8, onProgress, {
    relaxQuotes: true,
    columnName: (cell) => cell.trim().toUpperCase(),
    checkHeader: (columns) => missingColumns(columns, REQUIRED, 'not an IPEDS directory file'),
  });
  // The whole file first: a college's derived names depend on the others' (college-aliases.ts).
  const all: (SourceRow | WithWeb)[] = [];
  for await (const item of rows) all.push('error' in item ? item : toRow(item.line, item.header, item.fields));
  yield* withDerivedAliases(all);
};

/**
 * The rows, each college's derived names (web name, initialisms) followed by its IALIAS names:
 * derived first, because the import keeps at most 10 and IALIAS sometimes lists 20 spellings
 * ("Illinios", "Champagne" … "UIUC" last).
 */
function withDerivedAliases(rows: readonly (SourceRow | WithWeb)[]): SourceRow[] {
  const colleges = rows.filter((r): r is WithWeb => 'input' in r);
  const derived = collegeAliases(
    colleges.map((r) => ({ name: r.input.schoolname ?? '', web: r.web, aliases: r.input.aliases })),
  );
  const extra = new Map(colleges.map((r, i) => [r, derived[i]!]));
  return rows.map((r) => {
    if (!('input' in r)) return r;
    const { web: _web, ...row } = r as WithWeb;
    const mine = extra.get(r)!;
    const listed = (row.input.aliases ?? []).filter((a) => !mine.includes(a.toLowerCase()));
    return { ...row, input: { ...row.input, aliases: [...mine, ...listed] } };
  });
}

/** A row as toRow makes it: with the college's web address, for the derived names. */
type WithWeb = Extract<SourceRow, { input: unknown }> & { readonly web?: string | undefined };

function toRow(line: number, header: ReadonlyMap<string, number>, fields: readonly string[]): SourceRow | WithWeb {
  const get = (column: string): string | undefined => {
    const index = header.get(column);
    return index === undefined ? undefined : fields[index]!.trim();
  };
  const unitid = get('UNITID')!;
  if (!/^\d{1,9}$/.test(unitid)) return { line, error: `UNITID "${unitid}" is not a number` };
  if (get('SECTOR') === '0') return { line, skip: IPEDS_SKIPS.administrative };
  if (get('CYACTIVE') === '3') return { line, skip: IPEDS_SKIPS.inactive };
  return {
    line,
    input: {
      schoolname: get('INSTNM')!,
      city: get('CITY')!,
      stateprovince: get('STABBR')!,
      aliases: splitAliases(get('IALIAS')),
      prominence: ipedsProminence(get),
      // ADDR is the street address; ZIP a ZIP or ZIP+4; LONGITUD (sic) and LATITUDE decimal degrees.
      address: get('ADDR'),
      postal_code: get('ZIP'),
      latitude: get('LATITUDE'),
      longitude: get('LONGITUD'),
      level: 'postsecondary',
      type: 'postsecondary',
      tags: CONTROL_TAGS[get('CONTROL') ?? ''] ?? [],
      // Leading zeros would otherwise give one institution two ids.
      sourceKey: `ipeds:${Number(unitid)}`,
    },
    web: get('WEBADDR'),
  };
}
