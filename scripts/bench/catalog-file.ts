// The catalog the bench imports: an NDJSON file in the canonical import format, with every real
// school of the committed lists (the IPEDS seed and the Canadian sample: the names the queries are
// built from, so the queries hit) topped up to the wanted size with synthetic schools
// (catalog.ts), whose names have the shape of a national K-12 directory ("school" in most of them).
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { uuidV5 } from '../../src/domain/ids.ts';
import { makeCatalog } from './catalog.ts';
import { mulberry32 } from './random.ts';

export const REAL_FILES = ['data/seed/ipeds-hd2022.ndjson', 'data/quality/canada-postsecondary.ndjson'] as const;

/** A row of the canonical NDJSON format, as the committed lists write it. */
export interface CatalogRow {
  readonly schoolid?: string | undefined;
  readonly schoolname: string;
  readonly city: string;
  readonly stateprovince: string;
  readonly aliases: readonly string[];
  readonly prominence?: number | undefined;
  readonly image_url?: string | undefined;
}

const fromRoot = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** The real schools, in file order (6,112 IPEDS + 142 Canadian). */
export function readRealSchools(): CatalogRow[] {
  return REAL_FILES.flatMap((file) =>
    readFileSync(fromRoot(file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as CatalogRow),
  );
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
