// The catalog the quality benchmark searches, read through the importer exactly as an import
// would store it:
//   - the project's real seed when it is committed (REAL_SEED: gzip or plain NDJSON);
//   - otherwise the IPEDS seed, plus with --catalog full (and ../shared/data on this machine) the
//     K-12 and Canadian schools of k12-catalog.ts (about 150,000 schools, as the real seed will be);
//   - plus, always, the Canadian postsecondary sample (data/quality/): the flagship class asks
//     for Canadian universities by the names they use (ODEF lists "Mcgill University" and
//     "University of Toronto (Admission And Awards)"); those the seed already has are not added.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { isAllCaps } from '../../src/domain/catalog/display-name.ts';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { nameSortKey } from '../../src/domain/shared/normalize.ts';
import { readDrafts } from '../../src/import/read.ts';
import { loadK12Catalog } from './k12-catalog.ts';

const fromRoot = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** The whole real catalog, once committed: the one line to change when its file name is known. */
export const REAL_SEED: readonly string[] = ['data/seed/schools.ndjson.gz'];
export const IPEDS_SEED = 'data/seed/ipeds-hd2022.ndjson';
export const CANADIAN_SAMPLE = 'data/quality/canada-postsecondary.ndjson';

export interface Catalog {
  readonly schools: CatalogSchool[];
  /** What it is made of, for the report's title. */
  readonly label: string;
  /** The colleges (the IPEDS seed's schools). */
  readonly colleges: ReadonlySet<string>;
  /** The K-12 (and Canadian) schools; empty when the catalog has none (then no K-12 class is built). */
  readonly k12: ReadonlySet<string>;
  /** The schools whose name was published ALL CAPS. */
  readonly allCaps: ReadonlySet<string>;
}

async function readNdjson(path: string): Promise<readonly CatalogSchool[]> {
  if (!path.endsWith('.gz')) return (await readDrafts(path, { format: 'ndjson' })).drafts;
  // The importer reads plain files: the gzip is unpacked to a temporary one.
  const dir = mkdtempSync(join(tmpdir(), 'quality-'));
  try {
    const plain = join(dir, 'catalog.ndjson');
    writeFileSync(plain, gunzipSync(readFileSync(path)));
    return (await readDrafts(plain, { format: 'ndjson' })).drafts;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The committed catalog alone (IPEDS seed + Canadian sample): what bench:compare measures. */
export async function loadCatalog(): Promise<CatalogSchool[]> {
  return [...(await readNdjson(fromRoot(IPEDS_SEED))), ...(await readNdjson(fromRoot(CANADIAN_SAMPLE)))];
}

/**
 * The real seed when committed; otherwise the IPEDS seed, with the K-12 and Canadian directories
 * when asked for (`directories`) and on this machine.
 */
export async function loadQualityCatalog(options: { directories?: boolean } = {}): Promise<Catalog> {
  const real = REAL_SEED.map(fromRoot).filter((p) => existsSync(p));
  const ipeds = existsSync(fromRoot(IPEDS_SEED)) ? await readNdjson(fromRoot(IPEDS_SEED)) : [];
  let schools: CatalogSchool[];
  let label: string;
  let allCaps: Set<string>;
  if (real.length > 0) {
    schools = (await Promise.all(real.map(readNdjson))).flat();
    label = `the real seed (${real.length} file${real.length > 1 ? 's' : ''})`;
    // Names kept as published: the ALL CAPS ones are still ALL CAPS.
    allCaps = new Set(schools.filter((s) => isAllCaps(s.name)).map((s) => s.id));
  } else {
    const more = options.directories ? loadK12Catalog(fromRoot) : undefined;
    schools = [...ipeds, ...(more?.schools ?? [])];
    label = more ? 'IPEDS seed + CCD + HIFLD + ODEF' : 'IPEDS seed';
    allCaps = new Set(more?.allCaps ?? []);
  }
  // Colleges: the IPEDS seed's ids (the real seed keeps them); without it, the ranked schools.
  const colleges = new Set(
    ipeds.length > 0 ? ipeds.map((s) => s.id) : schools.filter((s) => s.prominence > 0).map((s) => s.id),
  );
  const k12 = new Set(schools.filter((s) => !colleges.has(s.id)).map((s) => s.id));
  const key = (s: CatalogSchool) => `${nameSortKey(s.name)}|${s.state}`;
  const have = new Set(schools.map(key));
  const sample = (await readNdjson(fromRoot(CANADIAN_SAMPLE))).filter((s) => !have.has(key(s)));
  return {
    schools: [...schools, ...sample],
    label: `${label} + Canadian sample (${sample.length})`,
    colleges,
    k12,
    allCaps,
  };
}
