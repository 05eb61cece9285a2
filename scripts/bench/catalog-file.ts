// The catalog the bench imports. By default the project's seed as committed
// (data/seed/schools.ndjson.gz: 149,311 real US and Canadian schools, K-12 and colleges), the
// queries built from its names. With `--catalog generated`: an NDJSON file in the canonical
// import format, with every real school of the committed lists (the IPEDS list and the Canadian
// sample: the names the queries are built from, so the queries hit) topped up to the wanted size
// with synthetic schools (catalog.ts), whose names have the shape of a national K-12 directory.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { uuidV5 } from '../../src/domain/shared/ids.ts';
import { makeCatalog } from './catalog.ts';
import { mulberry32 } from './random.ts';

export const REAL_FILES = ['data/seed/ipeds-hd2022.ndjson', 'data/quality/canada-postsecondary.ndjson'] as const;
export const SEED_FILE = 'data/seed/schools.ndjson.gz';

/** A row of the canonical NDJSON format, as the committed lists write it. */
export interface CatalogRow {
  readonly schoolid?: string | undefined;
  readonly schoolname: string;
  readonly city: string;
  readonly stateprovince: string;
  readonly aliases: readonly string[];
  readonly prominence?: number | undefined;
  readonly image_url?: string | undefined;
  readonly latitude?: number | undefined;
  readonly longitude?: number | undefined;
  readonly level?: string | undefined;
  readonly type?: string | undefined;
  readonly tags?: readonly string[] | undefined;
}

export const fromRoot = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

const parseLines = (text: string): CatalogRow[] =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CatalogRow);

/** The seed's schools, in file order (the fields the bench's queries use are typed; address and grades are not). */
export function readSeedSchools(): CatalogRow[] {
  return parseLines(gunzipSync(readFileSync(fromRoot(SEED_FILE))).toString('utf8'));
}

/** The real schools, in file order (6,112 IPEDS + 142 Canadian). */
export function readRealSchools(): CatalogRow[] {
  return REAL_FILES.flatMap((file) => parseLines(readFileSync(fromRoot(file), 'utf8')));
}

export interface CatalogFile {
  readonly rows: number;
  readonly real: number;
  readonly synthetic: number;
  readonly bytes: number;
  readonly ms: number;
}

/**
 * Writes `n` schools to `path`: the real ones first (as they are, prominence included), then
 * synthetic ones with a prominence of 0 to 40. Synthetic rows carry a schoolid derived from the
 * seed and their position: without one the importer derives the id from name, city and state,
 * and two generated namesakes in one town would be one school (or a conflicting row).
 */
export function writeCatalogFile(path: string, n: number, seed: number, real: readonly CatalogRow[]): CatalogFile {
  const started = performance.now();
  const r = mulberry32(seed);
  const kept = real.slice(0, n);
  const lines = kept.map((row) => JSON.stringify(row));
  const synthetic = makeCatalog(n - kept.length, r);
  for (const [i, s] of synthetic.entries()) {
    lines.push(
      JSON.stringify({
        schoolid: uuidV5(`bench:${seed}:${i}`),
        schoolname: s.schoolname,
        city: s.city,
        stateprovince: s.stateprovince,
        aliases: s.aliases ?? [],
        prominence: Math.floor(r() * 41),
        ...(s.image_url ? { image_url: s.image_url } : {}),
      }),
    );
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return {
    rows: lines.length,
    real: kept.length,
    synthetic: synthetic.length,
    bytes: statSync(path).size,
    ms: performance.now() - started,
  };
}
