// The NCES EDGE public-school geocode file (EDGE_GEOCODE_PUBLICSCH_<yy><yy>, or its older
// EDGE_GEOIDS_<yyyy><yy>_PUBLIC_SCHOOL): SURVYEAR, NCESSCH, LSTREE (or LSTREET1), LCITY, LSTATE,
// LZIP, LZIP4, LATCODE (or LAT), LONGCODE (or LON) …. It names no school: each row is where the
// CCD school of that NCESSCH is. So it creates nothing; it gives a location to `nces:<NCESSCH>`
// schools, in the store (edge-import.ts) or in memory (joinLocations, for the seed).
import type { SchoolDraft } from '../domain/catalog/catalog.ports.ts';
import { draftSchool, type SchoolInput } from '../domain/catalog/school-draft.ts';
import { headedRecords } from './csv-records.ts';
import type { RowProblem } from './errors.ts';

/** Where one school is, as the EDGE row gives it (text as in the file, blanks left out). */
export interface EdgeLocation {
  readonly line: number;
  readonly address?: string | undefined;
  readonly postal_code?: string | undefined;
  readonly latitude?: string | undefined;
  readonly longitude?: string | undefined;
}

export type EdgeRow =
  | { readonly line: number; readonly key: string; readonly location: EdgeLocation }
  | { readonly line: number; readonly error: string };

const MISSING: ReadonlySet<string> = new Set(['', 'N', 'M', '-1', '-2']);

/** An EDGE geocode header names NCESSCH and a coordinate (LATCODE or LAT), and no school name. */
export function isEdgeHeader(columns: readonly string[]): boolean {
  const names = new Set(columns.map((c) => c.trim().toLowerCase()));
  return (
    names.has('ncessch') &&
    (names.has('latcode') || names.has('lat')) &&
    !names.has('sch_name') &&
    !names.has('school_name')
  );
}

/** Each data row's school key (`nces:<NCESSCH>`) and location, or why the row is wrong. */
export async function* readEdgeRows(utf8: Buffer, onProgress: (fraction: number) => void): AsyncGenerator<EdgeRow> {
  const rows = headedRecords(utf8, onProgress, {
    relaxQuotes: true,
    columnName: (cell) => cell.trim().toLowerCase(),
    checkHeader: (columns) =>
      isEdgeHeader(columns) ? undefined : 'not an EDGE school geocode file: missing column(s) NCESSCH and LATCODE',
  });
  for await (const item of rows) {
    if ('error' in item) {
      yield item;
      continue;
    }
    const { line, header, fields } = item;
    const get = (...columns: string[]): string | undefined => {
      for (const column of columns) {
        const index = header.get(column);
        const value = index === undefined ? undefined : fields[index]!.trim();
        if (value !== undefined && !MISSING.has(value)) return value;
      }
      return undefined;
    };
    const ncessch = get('ncessch') ?? '';
    if (!/^\d{11,12}$/.test(ncessch)) {
      yield { line, error: `NCESSCH "${ncessch}" is not a 12-digit NCES school id` };
      continue;
    }
    const zip = get('lzip');
    const zip4 = get('lzip4');
    yield {
      line,
      key: `nces:${ncessch.padStart(12, '0')}`,
      location: {
        line,
        address: get('lstree', 'lstreet1'),
        postal_code: zip && zip4 ? `${zip}-${zip4}` : zip,
        latitude: get('latcode', 'lat'),
        longitude: get('longcode', 'lon'),
      },
    };
  }
}

/**
 * The school with the EDGE row's location: each location field the row gives replaces the
 * school's, the others are kept. Validated as any row is (a coordinate out of range, or one
 * without the other, is refused).
 */
export function withLocation(school: SchoolDraft, location: EdgeLocation) {
  const input: SchoolInput = {
    schoolid: school.id,
    schoolname: school.name,
    city: school.city,
    stateprovince: school.state,
    image_url: school.imageUrl ?? undefined,
    aliases: school.aliases,
    prominence: school.prominence,
    address: location.address ?? school.address,
    postal_code: location.postal_code ?? school.postalCode,
    latitude: location.latitude ?? school.latitude,
    longitude: location.longitude ?? school.longitude,
    level: school.level,
    lowest_grade: school.lowestGrade,
    highest_grade: school.highestGrade,
    type: school.type,
    tags: school.tags,
    sourceKey: school.sourceKey,
  };
  return draftSchool(input);
}

/**
 * For a seed builder: the drafts of a CCD directory with the locations of an EDGE file read with
 * readEdgeRows, joined by source key in memory. Drafts without an EDGE row are unchanged.
 */
export function joinLocations(
  drafts: readonly SchoolDraft[],
  locations: ReadonlyMap<string, EdgeLocation>,
): { drafts: SchoolDraft[]; joined: number; problems: RowProblem[] } {
  let joined = 0;
  const problems: RowProblem[] = [];
  const out = drafts.map((draft) => {
    const location = draft.sourceKey === undefined ? undefined : locations.get(draft.sourceKey);
    if (!location) return draft;
    const result = withLocation(draft, location);
    if (!result.ok) {
      problems.push({ line: location.line, reason: result.reason });
      return draft;
    }
    joined++;
    return result.draft;
  });
  return { drafts: out, joined, problems };
}
