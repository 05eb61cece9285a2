import type {
  CatalogChunk,
  CatalogSchool,
  ImportCounts,
  School,
  SchoolDraft,
  SchoolRecord,
  SchoolStore,
} from '../../../src/domain/catalog/catalog.ports.ts';

type Stored = CatalogSchool & { readonly sourceKey?: string | undefined; readonly updatedAt?: Date };

/** Equal but for the source key and the time of change, which the stores keep and never compare. */
const same = (a: Stored, b: Stored) =>
  JSON.stringify({ ...a, sourceKey: undefined, updatedAt: undefined }) ===
  JSON.stringify({ ...b, sourceKey: undefined, updatedAt: undefined });

/** The catalog in a Map; its version changes with every write that changes a school. */
export class MemorySchoolStore implements SchoolStore {
  readonly #schools = new Map<string, Stored>();
  #version = 0;

  async findById(id: string): Promise<School | null> {
    const school = this.#schools.get(id);
    if (!school) return null;
    // The source key is the store's own record of where a school came from, not part of it.
    const {
      aliases: _aliases,
      prominence: _prominence,
      sourceKey: _sourceKey,
      updatedAt: _updatedAt,
      ...plain
    } = school;
    return plain;
  }

  async findRecord(id: string): Promise<SchoolRecord | null> {
    const school = this.#schools.get(id);
    if (!school) return null;
    const { prominence: _prominence, sourceKey, updatedAt, ...plain } = school;
    return { ...plain, sourceIds: sourceKey === undefined ? [] : [sourceKey], updatedAt: updatedAt ?? new Date(0) };
  }

  async count(): Promise<number> {
    return this.#schools.size;
  }

  async upsertMany(schools: readonly SchoolDraft[], onProgress?: (done: number) => void): Promise<ImportCounts> {
    const counts = await this.compareMany(schools);
    const now = new Date();
    for (const school of schools) {
      const before = this.#schools.get(school.id);
      // As the stores do: a school's source key is kept when a later import (a canonical file) has none.
      const sourceKey = school.sourceKey ?? before?.sourceKey;
      // ...and its time of change moves only when it changed.
      const updatedAt = before && same(before, school) ? before.updatedAt : now;
      this.#schools.set(school.id, {
        ...school,
        aliases: [...school.aliases],
        ...(sourceKey === undefined ? {} : { sourceKey }),
        ...(updatedAt === undefined ? {} : { updatedAt }),
      });
    }
    if (counts.inserted + counts.updated > 0) this.#version++;
    onProgress?.(schools.length);
    return counts;
  }

  async compareMany(schools: readonly SchoolDraft[]): Promise<ImportCounts> {
    let inserted = 0;
    let updated = 0;
    // A school listed twice is compared, the second time, with its first listing: as if written.
    const seen = new Map<string, Stored>();
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

  async *readCatalog(): AsyncGenerator<CatalogChunk> {
    const version = await this.catalogVersion();
    yield { kind: 'schools', schools: [...this.#schools.values()] };
    yield { kind: 'version', version };
  }
}
