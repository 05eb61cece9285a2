// The whole catalog of a store, read through its port (readCatalog), for the tests that want it
// whole: every batch since the last `restart`, the version, and how many batches came.
import type { CatalogChunk, CatalogSchool, SchoolStore } from '../../src/domain/catalog/catalog.ports.ts';

export interface WholeCatalog {
  readonly version: string;
  readonly schools: CatalogSchool[];
  readonly batches: number;
}

export async function readWholeCatalog(source: Pick<SchoolStore, 'readCatalog'>): Promise<WholeCatalog> {
  let schools: CatalogSchool[] = [];
  let batches = 0;
  for await (const chunk of source.readCatalog() as AsyncIterable<CatalogChunk>) {
    if (chunk.kind === 'restart') {
      schools = [];
      batches = 0;
    } else if (chunk.kind === 'schools') {
      schools.push(...chunk.schools);
      batches++;
    } else return { version: chunk.version, schools, batches };
  }
  throw new Error('readCatalog ended without the version');
}
