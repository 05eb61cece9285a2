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
 * IALIAS holds alternative names separated by `|`, or by runs of spaces where the form
 * field was padded ("UAH  University of Alabama Huntsville").
 */
export function splitAliases(field: string | undefined): string[] {
  return (field ?? '')
    .split(/\||\s{2,}/)
    .map((a) => a.trim())
    .filter((a) => a.length > 0);
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
      // Leading zeros would otherwise give one institution two ids.
      sourceKey: `ipeds:${Number(unitid)}`,
    },
  };
}
