import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { ImportCounts, School, SchoolDraft, SchoolPage, SchoolQuery, SchoolStore } from '../../domain/ports.ts';
import { transaction } from './database.ts';
import { guarded } from './errors.ts';

interface SchoolRow {
  id: string;
  name: string;
  city: string;
  state: string;
  image_url: string | null;
}

interface HitRow extends SchoolRow {
  len: number;
  total: number;
}

/** FTS5 query: every term as a quoted prefix, ANDed. Terms are letters and digits only (domain). */
export function matchExpression(terms: readonly string[]): string {
  return terms.map((t) => `"${t.replace(/"/g, '""')}"*`).join(' AND ');
}

export class SqliteSchoolStore implements SchoolStore {
  readonly #db: DatabaseSync;
  readonly #page: StatementSync;
  readonly #count: StatementSync;
  readonly #byId: StatementSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    // The shortest matching text of each school decides its score (domain: similarity).
    const matches = `
      SELECT t.school_rowid AS sr, MIN(t.length) AS len
      FROM school_texts_fts f JOIN school_texts t ON t.rowid = f.rowid
      WHERE school_texts_fts MATCH :match
      GROUP BY t.school_rowid`;
    this.#page = db.prepare(`
      WITH m AS (${matches})
      SELECT s.id, s.name, s.city, s.state, s.image_url, m.len, COUNT(*) OVER () AS total
      FROM m JOIN schools s ON s.rowid = m.sr
      WHERE :state IS NULL OR s.state = :state
      ORDER BY max(m.len, :covered), s.sort_key, s.id
      LIMIT :limit OFFSET :offset`);
    this.#count = db.prepare(`
      WITH m AS (${matches})
      SELECT COUNT(*) AS total FROM m JOIN schools s ON s.rowid = m.sr
      WHERE :state IS NULL OR s.state = :state`);
    this.#byId = db.prepare('SELECT id, name, city, state, image_url FROM schools WHERE id = ?');
  }

  search(query: SchoolQuery): Promise<SchoolPage> {
    return guarded(() => {
      if (query.terms.length === 0) return { total: 0, hits: [] };
      const params = { match: matchExpression(query.terms), state: query.state ?? null };
      const rows = this.#page.all({
        ...params,
        covered: query.coveredLength,
        limit: query.limit,
        offset: query.offset,
      }) as unknown as HitRow[];
      // Past the end the window count has no row to ride on: count separately.
      const total = rows[0]?.total ?? (this.#count.get(params) as { total: number }).total;
      return { total, hits: rows.map((r) => ({ ...toSchool(r), matchedLength: r.len })) };
    });
  }

  findById(id: string): Promise<School | null> {
    return guarded(() => {
      const row = this.#byId.get(id) as SchoolRow | undefined;
      return row ? toSchool(row) : null;
    });
  }

  count(): Promise<number> {
    return guarded(() => (this.#db.prepare('SELECT COUNT(*) AS n FROM schools').get() as { n: number }).n);
  }

  upsertMany(schools: readonly SchoolDraft[], onProgress?: (done: number) => void): Promise<ImportCounts> {
    return guarded(() => {
      const db = this.#db;
      const find = db.prepare('SELECT rowid, name, city, state, image_url, aliases FROM schools WHERE id = ?');
      const insert = db.prepare(
        'INSERT INTO schools (id, name, city, state, image_url, aliases, sort_key) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      const update = db.prepare(
        'UPDATE schools SET name = ?, city = ?, state = ?, image_url = ?, aliases = ?, sort_key = ? WHERE rowid = ?',
      );
      const dropTexts = db.prepare('DELETE FROM school_texts WHERE school_rowid = ?');
      const addText = db.prepare('INSERT INTO school_texts (school_rowid, length, terms) VALUES (?, ?, ?)');
      let inserted = 0;
      let updated = 0;
      let unchanged = 0;
      transaction(db, () => {
        schools.forEach((s, i) => {
          if (onProgress && i > 0 && i % 500 === 0) onProgress(i);
          const aliases = JSON.stringify(s.aliases);
          const existing = find.get(s.id) as
            | { rowid: number; name: string; city: string; state: string; image_url: string | null; aliases: string }
            | undefined;
          let rowid: number;
          if (!existing) {
            rowid = Number(insert.run(s.id, s.name, s.city, s.state, s.imageUrl, aliases, s.sortKey).lastInsertRowid);
            inserted++;
          } else if (
            existing.name === s.name &&
            existing.city === s.city &&
            existing.state === s.state &&
            existing.image_url === s.imageUrl &&
            existing.aliases === aliases
          ) {
            unchanged++;
            return;
          } else {
            rowid = existing.rowid;
            update.run(s.name, s.city, s.state, s.imageUrl, aliases, s.sortKey, rowid);
            dropTexts.run(rowid);
            updated++;
          }
          for (const text of s.searchTexts) addText.run(rowid, text.length, text.terms.join(' '));
        });
      });
      onProgress?.(schools.length);
      return { inserted, updated, unchanged };
    });
  }
}

function toSchool(row: SchoolRow): School {
  return { id: row.id, name: row.name, city: row.city, state: row.state, imageUrl: row.image_url };
}
