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
}

/**
 * FTS5 query: the terms ANDed, each quoted (terms are letters and digits only, by the domain).
 * A one-character term matches a whole word ("a" in "Texas A & M"); longer ones are prefixes.
 */
export function matchExpression(terms: readonly string[]): string {
  return terms.map((t) => `"${t.replace(/"/g, '""')}"${t.length > 1 ? '*' : ''}`).join(' AND ');
}

export class SqliteSchoolStore implements SchoolStore {
  readonly #db: DatabaseSync;
  readonly #page: StatementSync;
  readonly #count: StatementSync;
  readonly #byId: StatementSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    // Grouping, ordering and paging happen on school_texts alone (it carries state, sort key and
    // id); only the page's rows are then read from schools. The shortest matching text of each
    // school decides its score (domain: similarity); max(len, covered) is the unrounded score.
    this.#page = db.prepare(`
      WITH page AS (
        SELECT t.school_rowid AS sr, MIN(t.length) AS len, t.sort_key AS sort_key, t.school_id AS id
        FROM school_texts_fts f JOIN school_texts t ON t.rowid = f.rowid
        WHERE school_texts_fts MATCH :match AND (:state IS NULL OR t.state = :state)
        GROUP BY t.school_rowid
        ORDER BY max(len, :covered), sort_key, id
        LIMIT :limit OFFSET :offset)
      SELECT s.id, s.name, s.city, s.state, s.image_url, page.len
      FROM page JOIN schools s ON s.rowid = page.sr
      ORDER BY max(page.len, :covered), page.sort_key, page.id`);
    this.#count = db.prepare(`
      SELECT COUNT(DISTINCT t.school_rowid) AS total
      FROM school_texts_fts f JOIN school_texts t ON t.rowid = f.rowid
      WHERE school_texts_fts MATCH :match AND (:state IS NULL OR t.state = :state)`);
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
      // A page that is neither full nor past the end tells the total without counting.
      const total =
        rows.length > 0 && rows.length < query.limit
          ? query.offset + rows.length
          : (this.#count.get(params) as { total: number }).total;
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
      const addText = db.prepare(
        'INSERT INTO school_texts (school_rowid, length, terms, state, sort_key, school_id) VALUES (?, ?, ?, ?, ?, ?)',
      );
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
          for (const text of s.searchTexts) addText.run(rowid, text.length, text.terms.join(' '), s.state, s.sortKey, s.id);
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
