// The canonical CSV format: UTF-8, a header naming the columns below, aliases and tags separated by `|`.
import { headedRecords } from './csv-records.ts';
import type { SourceReader } from './source.ts';

const REQUIRED = ['schoolname', 'city', 'stateprovince'] as const;
const OPTIONAL = [
  'image_url',
  'schoolid',
  'aliases',
  'prominence',
  'address',
  'postal_code',
  'latitude',
  'longitude',
  'level',
  'lowest_grade',
  'highest_grade',
  'type',
  'tags',
] as const;
const KNOWN: ReadonlySet<string> = new Set([...REQUIRED, ...OPTIONAL]);

type Column = (typeof REQUIRED)[number] | (typeof OPTIONAL)[number];

export const readCsv: SourceReader = async function* (data, onProgress) {
  const rows = headedRecords(data, onProgress, { columnName: (cell) => cell.trim(), checkHeader });
  for await (const item of rows) {
    if ('error' in item) {
      yield item;
      continue;
    }
    const { line, header, fields } = item;
    const get = (column: Column): string | undefined => {
      const index = header.get(column);
      return index === undefined ? undefined : fields[index];
    };
    yield {
      line,
      input: {
        schoolname: get('schoolname')!,
        city: get('city')!,
        stateprovince: get('stateprovince')!,
        image_url: get('image_url'),
        schoolid: get('schoolid'),
        aliases: get('aliases')?.split('|'),
        prominence: get('prominence'),
        address: get('address'),
        postal_code: get('postal_code'),
        latitude: get('latitude'),
        longitude: get('longitude'),
        level: get('level'),
        lowest_grade: get('lowest_grade'),
        highest_grade: get('highest_grade'),
        type: get('type'),
        // Like aliases: `charter|catholic`; blank is none.
        tags: get('tags')?.split('|'),
      },
    };
  }
};

function checkHeader(names: readonly string[]): string | undefined {
  const unknown = names.filter((n) => !KNOWN.has(n));
  if (unknown.length > 0) {
    return `unknown column(s) ${unknown.map((n) => `"${n}"`).join(', ')}; the columns are ${[...KNOWN].join(', ')}`;
  }
  const repeated = names.filter((n, i) => names.indexOf(n) !== i);
  if (repeated.length > 0) return `column(s) ${[...new Set(repeated)].join(', ')} appear more than once`;
  const missing = REQUIRED.filter((c) => !names.includes(c));
  if (missing.length > 0) return `missing required column(s) ${missing.join(', ')}`;
  return undefined;
}
