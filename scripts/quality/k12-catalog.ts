// A realistic K-12 and Canadian catalog for the quality benchmark while the project's seed holds
// colleges only: the real directories in ../shared/data (NCES CCD public schools, HIFLD private
// schools, Statistics Canada's ODEF; columns and caveats in their SOURCES.md), mapped minimally to
// what search reads. Ids as the importers make them (`nces:<ncessch>`, `pss:<NCESID>`,
// `odef:<Provider>:<Source_ID>`, UUIDv5); names and cities published ALL CAPS in title case
// (display-name.ts), as the API shows them; prominence 0 for K-12 schools: neither file ranks them
// (HIFLD's ENROLLMENT would favour private schools over public ones, which have none); ODEF's
// postsecondary facilities some (odefProminence).
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { displayCity, displayName, isAllCaps } from '../../src/domain/catalog/display-name.ts';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { draftSchool } from '../../src/domain/catalog/school-draft.ts';

export const K12_FILES = {
  ccd: '../shared/data/k12/ccd-public-schools-2019-20.csv.gz',
  hifld: '../shared/data/k12/hifld-private-schools.csv.gz',
  odef: '../shared/data/canada/odef-v2-2021-04-07.csv.gz',
} as const;

type Row = Record<string, string>;

function rowsOf(path: string): Row[] {
  return parse(gunzipSync(readFileSync(path)), { columns: true, bom: true, relax_quotes: true }) as Row[];
}

/** The school as the importer would store it (its validation and id rule), or undefined when invalid. */
function school(
  sourceKey: string | undefined,
  name: string,
  city: string,
  state: string,
  prominence = 0,
): CatalogSchool | undefined {
  const result = draftSchool({
    schoolname: displayName(name.trim().replace(/\s+/g, ' ')),
    city: displayCity(city.trim().replace(/\s+/g, ' ')),
    stateprovince: state,
    sourceKey,
    prominence,
  });
  return result.ok ? result.draft : undefined;
}

const known = (v: string | undefined): v is string => v !== undefined && v.trim() !== '' && v.trim() !== '..';

export interface K12Catalog {
  readonly schools: CatalogSchool[];
  /** The schools whose name the directory published ALL CAPS. */
  readonly allCaps: ReadonlySet<string>;
}

/** The K-12 and Canadian schools, or undefined when the directories are not on this machine (a fresh clone). */
export function loadK12Catalog(fromRoot: (path: string) => string): K12Catalog | undefined {
  const paths = Object.values(K12_FILES).map(fromRoot);
  if (!paths.every((p) => existsSync(p))) return undefined;
  const byId = new Map<string, CatalogSchool>();
  const allCaps = new Set<string>();
  const add = (s: CatalogSchool | undefined, published: string) => {
    if (!s) return;
    byId.set(s.id, s);
    if (isAllCaps(published)) allCaps.add(s.id);
  };
  for (const r of rowsOf(fromRoot(K12_FILES.ccd)))
    add(
      school(`nces:${r['ncessch']}`, r['school_name']!, r['city_location']!, r['state_location']!),
      r['school_name']!,
    );
  for (const r of rowsOf(fromRoot(K12_FILES.hifld)))
    add(school(`pss:${r['NCESID']}`, r['NAME']!, r['CITY']!, r['STATE']!), r['NAME']!);
  for (const r of rowsOf(fromRoot(K12_FILES.odef))) {
    const [name, city, province] = [r['Facility_Name'], r['City'], r['Prov_Terr']];
    if (!known(name) || !known(city) || !known(province)) continue;
    // Without a provider's id, the name, city and province decide, as the importer does.
    const id = known(r['Provider']) && known(r['Source_ID']) ? `odef:${r['Provider']}:${r['Source_ID']}` : undefined;
    add(school(id, name, city, province, odefProminence(r)), name);
  }
  return { schools: [...byId.values()], allCaps };
}

/**
 * ODEF has no size or rank: a university 50, a college of the public network (cégep, junior
 * college) 25, anything else 0, so that "mcgill" and "laval" find the universities before the
 * schools of that name (a proposal for the ODEF importer; on IPEDS's scale a four-year main campus
 * has at least 30). ISCED4Plus alone would rank every adult-education centre of a secondary school.
 */
function odefProminence(r: Row): number {
  const type = r['Facility_Type'] ?? '';
  if (/^(University|Université|Constituante|Organisme décernant des grades universitaires)$/.test(type)) return 50;
  if (/^(Cégep|Junior College|Collège régional|Campus collégial|Collège constituant)$/.test(type)) return 25;
  return 0;
}
