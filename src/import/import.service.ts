// PLACEHOLDER: replaced by the importer (readers for IPEDS, CSV and NDJSON).
import type { ImportCounts, Store } from '../domain/ports.ts';
export interface ImportReport { counts: ImportCounts }
export async function importFile(_store: Store, _path: string, _options: { format?: string }): Promise<ImportReport> {
  return { counts: { inserted: 0, updated: 0, unchanged: 0 } };
}
