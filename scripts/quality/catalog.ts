// The catalog the quality benchmark searches: the committed IPEDS seed and the Canadian sample
// (data/quality/), read through the importer, exactly as an import would store them.
import { fileURLToPath } from 'node:url';
import type { CatalogSchool } from '../../src/domain/ports.ts';
import { readDrafts } from '../../src/import/read.ts';

const fromRoot = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

export const CATALOG_FILES = ['data/seed/ipeds-hd2022.ndjson', 'data/quality/canada-postsecondary.ndjson'] as const;

export async function loadCatalog(): Promise<CatalogSchool[]> {
  const all: CatalogSchool[] = [];
  for (const file of CATALOG_FILES) all.push(...(await readDrafts(fromRoot(file), { format: 'ndjson' })).drafts);
  return all;
}
