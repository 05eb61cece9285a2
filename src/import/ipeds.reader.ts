// The NCES IPEDS "HD" directory file exactly as NCES distributes it (Windows-1252, CRLF, quoted
// CSV, one row per institution, blank text fields holding a single space).
import { csvRecords } from './csv.records.ts';
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
 * The static rank of an institution, 0–100, from columns of the directory: flagships before
 * small namesakes ("purdue university" → the West Lafayette campus before Purdue Global and the
 * regional campuses). Size (INSTSIZE 1–5: up to 40), research activity (Carnegie 2021 basic
 * classification C21BASIC: R1 40, R2 30, doctoral/professional 20, master's 10, baccalaureate 5),
 * main campus (OPEID ending in 00: 10, branches 0) and level (ICLEVEL: four-year 10, two-year 5).
 */
export function ipedsProminence(get: (column: string) => string | undefined): number {
  const size = Number(get('INSTSIZE'));
  const sizePoints = size >= 1 && size <= 5 ? size * 8 : 0;
  const carnegie = Number(get('C21BASIC'));
  const researchPoints = carnegie === 15 ? 40 : carnegie === 16 ? 30 : carnegie === 17 ? 20 : carnegie >= 18 && carnegie <= 20 ? 10 : carnegie >= 21 && carnegie <= 23 ? 5 : 0;
  const opeid = get('OPEID') ?? '';
  const mainPoints = /^\d{8}$/.test(opeid) && opeid.endsWith('00') ? 10 : 0;
  const level = Number(get('ICLEVEL'));
  const levelPoints = level === 1 ? 10 : level === 2 ? 5 : 0;
  return sizePoints + researchPoints + mainPoints + levelPoints;
}

export const readIpeds: SourceReader = async function* (data, onProgress) {
  // Windows-1252 maps every byte to one character and keeps CR/LF, so line numbers survive.
  const text = Buffer.from(new TextDecoder('windows-1252').decode(data), 'utf8');
  let header: Map<string, number> | undefined;
  let width = 0;
  // relaxQuotes: NCES leaves quotes inside quoted fields unescaped (HD2022 line 1410, a URL with
  // hl="veteran"); such a field is then read as it stands, quotes and all.
  for await (const item of csvRecords(text, onProgress, { relaxQuotes: true })) {
    if ('error' in item) {
      yield item;
      return;
    }
    if (!header) {
      width = item.fields.length;
      header = new Map(item.fields.map((name, i) => [name.trim().toUpperCase(), i]));
      const missing = REQUIRED.filter((c) => !header!.has(c));
      if (missing.length > 0) {
        yield { line: item.line, error: `not an IPEDS directory file: missing column(s) ${missing.join(', ')}` };
        return;
      }
      continue;
    }
    if (item.fields.length !== width) {
      yield { line: item.line, error: `has ${item.fields.length} fields; the header has ${width}` };
      continue;
    }
    yield toRow(item.line, header, item.fields);
  }
};

function toRow(line: number, header: Map<string, number>, fields: readonly string[]): SourceRow {
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
      // Leading zeros would otherwise give one institution two ids.
      sourceKey: `ipeds:${Number(unitid)}`,
    },
  };
}
