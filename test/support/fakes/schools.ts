import type { CatalogSchool, ImportCounts, School, SchoolDraft, SchoolStore } from '../../../src/domain/ports.ts';

const same = (a: CatalogSchool, b: CatalogSchool) => JSON.stringify(a) === JSON.stringify(b);

/** The catalog in a Map; its version changes with every write that changes a school. */
export class MemorySchoolStore implements SchoolStore {
  readonly #schools = new Map<string, CatalogSchool>();
  #version = 0;

  async findById(id: string): Promise<School | null> {
    const school = this.#schools.get(id);
    if (!school) return null;
    const { aliases: _aliases, prominence: _prominence, ...plain } = school;
    return plain;
  }

  async count(): Promise<number> {
    return this.#schools.size;
  }

  async upsertMany(schools: readonly SchoolDraft[], onProgress?: (done: number) => void): Promise<ImportCounts> {
    const counts = await this.compareMany(schools);
    for (const school of schools) this.#schools.set(school.id, { ...school, aliases: [...school.aliases] });
    if (counts.inserted + counts.updated > 0) this.#version++;
    onProgress?.(schools.length);
    return counts;
  }

  async compareMany(schools: readonly SchoolDraft[]): Promise<ImportCounts> {
    let inserted = 0;
    let updated = 0;
    // A school listed twice is compared, the second time, with its first listing: as if written.
    const seen = new Map<string, CatalogSchool>();
    for (const school of schools) {
      const before = seen.get(school.id) ?? this.#schools.get(school.id);
      if (!before) inserted++;
      else if (!same(before, school)) updated++;
      seen.set(school.id, school);
    }
    return { inserted, updated, unchanged: schools.length - inserted - updated };
  }

  async catalogVersion(): Promise<string> {
    return `v${this.#version}`;
  }

  async readCatalog(onBatch: (schools: readonly CatalogSchool[]) => void | Promise<void>): Promise<string> {
    await onBatch([...this.#schools.values()]);
    return this.catalogVersion();
  }
}
