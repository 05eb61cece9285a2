import type { DatabaseSync } from 'node:sqlite';
import type { ImportCounts, School, SchoolDraft, SchoolPage, SchoolQuery, SchoolStore } from '../../domain/ports.ts';
import type { Connection } from './connection.ts';
import { snapshot, transaction } from './database.ts';

interface SchoolRow {
  id: string;
  name: string;
  city: string;
  state: string;
  image_url: string | null;
}

interface Match {
  school_rowid: number;
  length: number;
}

/** Distinct match counts kept per catalog version; common words are asked for again and again. */
const COUNT_CACHE_SIZE = 1000;

/**
 * FTS5 query: the terms ANDed, each quoted (terms are letters and digits only, by the domain).
 * A one-character term matches a whole word ("a" in "Texas A & M"); longer ones are prefixes.
 * The state, when given, is a filter on the index's state column.
 */
export function matchExpression(terms: readonly string[], state?: string): string {
  const words = terms.map((t) => `"${t.replace(/"/g, '""')}"${t.length > 1 ? '*' : ''}`).join(' AND ');
  return state ? `{terms}: (${words}) AND {state}: "${state.replace(/"/g, '""')}"` : `{terms}: (${words})`;
}

// school_texts rowids are in result order (see schema.ts). The only exception: texts no longer
// than the letters the query covers all score 1, so among them the name decides, not length.
// rowid order is length order, so the last rowid of the short texts is the last index entry.
const BOUNDARY = `
  SELECT rowid AS b FROM school_texts INDEXED BY school_texts_by_length
  WHERE length <= ? ORDER BY length DESC, rowid DESC LIMIT 1`;
const SHORT = `
  SELECT t.school_rowid, MIN(t.length) AS length
  FROM school_texts_fts f JOIN school_texts t ON t.rowid = f.rowid
  WHERE school_texts_fts MATCH :match AND f.rowid <= :boundary
  GROUP BY t.school_rowid
  ORDER BY t.sort_key, t.school_id`;
const ORDERED = `
  SELECT t.school_rowid, t.length
  FROM school_texts_fts f JOIN school_texts t ON t.rowid = f.rowid
  WHERE school_texts_fts MATCH :match AND f.rowid > :boundary
  ORDER BY f.rowid`;
const COUNT = `
  SELECT COUNT(DISTINCT t.school_rowid) AS total
  FROM school_texts_fts f JOIN school_texts t ON t.rowid = f.rowid
  WHERE school_texts_fts MATCH :match`;
const VERSION = 'SELECT version FROM catalog WHERE id = 1';
const BY_ROWID = 'SELECT id, name, city, state, image_url FROM schools WHERE rowid = ?';
const BY_ID = 'SELECT id, name, city, state, image_url FROM schools WHERE id = ?';
const COUNT_ALL = 'SELECT COUNT(*) AS n FROM schools';
const FIND = 'SELECT rowid, name, city, state, image_url, aliases, sort_key, texts FROM schools WHERE id = ?';
const INSERT = 'INSERT INTO schools (id, name, city, state, image_url, aliases, sort_key, texts) VALUES (?, ?, ?, ?, ?, ?, ?, ?)';
const UPDATE = 'UPDATE schools SET name = ?, city = ?, state = ?, image_url = ?, aliases = ?, sort_key = ?, texts = ? WHERE rowid = ?';

export class SqliteSchoolStore implements SchoolStore {
  readonly #connection: Connection;
  readonly #counts = new Map<string, number>();
  /** Catalog version and connection the cached counts belong to: a store file put back at the path may reuse a version number. */
  #countsVersion = '';

  constructor(connection: Connection) {
    this.#connection = connection;
  }

  search(query: SchoolQuery): Promise<SchoolPage> {
    const c = this.#connection;
    return c.read(() => snapshot(c.db, () => this.#search(query)));
  }

  #search(query: SchoolQuery): SchoolPage {
    if (query.terms.length === 0) return { total: 0, hits: [] };
    const match = matchExpression(query.terms, query.state);
    const wanted = query.offset + query.limit;
    const c = this.#connection;
    const boundary = (c.statement(BOUNDARY).get(query.coveredLength) as { b: number } | undefined)?.b ?? 0;
    const found = c.statement(SHORT).all({ match, boundary }) as unknown as Match[];
    const seen = new Set(found.map((m) => m.school_rowid));
    // Stream the rest in result order; a school's first text is its shortest matching one.
    let exhausted = true;
    if (found.length < wanted) {
      for (const m of c.statement(ORDERED).iterate({ match, boundary }) as Iterable<Match>) {
        if (seen.has(m.school_rowid)) continue;
        if (found.length === wanted) {
          exhausted = false;
          break;
        }
        seen.add(m.school_rowid);
        found.push(m);
      }
    } else {
      exhausted = false;
    }
    const total = exhausted ? found.length : this.#countOf(match);
    const hits = found.slice(query.offset, wanted).map((m) => {
      const school = toSchool(c.statement(BY_ROWID).get(m.school_rowid) as unknown as SchoolRow);
      return { ...school, matchedLength: m.length };
    });
    return { total, hits };
  }

  findById(id: string): Promise<School | null> {
    const c = this.#connection;
    return c.read(() => {
      const row = c.statement(BY_ID).get(id) as SchoolRow | undefined;
      return row ? toSchool(row) : null;
    });
  }

  count(): Promise<number> {
    const c = this.#connection;
    return c.read(() => (c.statement(COUNT_ALL).get() as { n: number }).n);
  }

  upsertMany(schools: readonly SchoolDraft[], onProgress?: (done: number) => void): Promise<ImportCounts> {
    const c = this.#connection;
    return c.write(() => {
      const db = c.db;
      const find = c.statement(FIND);
      const insert = c.statement(INSERT);
      const update = c.statement(UPDATE);
      let inserted = 0;
      let updated = 0;
      let unchanged = 0;
      // The rebuild costs time in proportion to the whole catalog: only when what is searched,
      // filtered or ordered on changed, not for a new city or logo.
      let reindex = false;
      transaction(db, () => {
        schools.forEach((s, i) => {
          if (onProgress && i > 0 && i % 500 === 0) onProgress(i);
          const aliases = JSON.stringify(s.aliases);
          const texts = JSON.stringify(s.searchTexts.map((t) => ({ terms: t.terms.join(' '), length: t.length })));
          const existing = find.get(s.id) as
            | { rowid: number; name: string; city: string; state: string; image_url: string | null; aliases: string; sort_key: string; texts: string }
            | undefined;
          if (!existing) {
            insert.run(s.id, s.name, s.city, s.state, s.imageUrl, aliases, s.sortKey, texts);
            inserted++;
            reindex = true;
          } else if (
            existing.name === s.name &&
            existing.city === s.city &&
            existing.state === s.state &&
            existing.image_url === s.imageUrl &&
            existing.aliases === aliases
          ) {
            unchanged++;
          } else {
            update.run(s.name, s.city, s.state, s.imageUrl, aliases, s.sortKey, texts, existing.rowid);
            updated++;
            reindex ||= existing.texts !== texts || existing.state !== s.state || existing.sort_key !== s.sortKey;
          }
        });
        if (reindex) rebuildSearchIndex(db);
      });
      onProgress?.(schools.length);
      return { inserted, updated, unchanged };
    });
  }

  /** Distinct schools matching, from the cache while the catalog has not changed. */
  #countOf(match: string): number {
    const c = this.#connection;
    const version = `${c.generation}:${(c.statement(VERSION).get() as { version: number }).version}`;
    if (version !== this.#countsVersion) {
      this.#counts.clear();
      this.#countsVersion = version;
    }
    let total = this.#counts.get(match);
    if (total === undefined) {
      total = (c.statement(COUNT).get({ match }) as { total: number }).total;
      if (this.#counts.size >= COUNT_CACHE_SIZE) this.#counts.delete(this.#counts.keys().next().value!);
      this.#counts.set(match, total);
    }
    return total;
  }
}

/**
 * Rewrites school_texts with rowids in result order and rebuilds the full-text index from it.
 * Runs inside the import's transaction: searches see the old index or the new one, never a mix.
 */
function rebuildSearchIndex(db: DatabaseSync): void {
  db.exec(`
    DELETE FROM school_texts;
    INSERT INTO school_texts (school_rowid, length, terms, state, sort_key, school_id)
      SELECT s.rowid, j.value ->> 'length', j.value ->> 'terms', s.state, s.sort_key, s.id
      FROM schools s, json_each(s.texts) j
      ORDER BY j.value ->> 'length', s.sort_key, s.id;
    INSERT INTO school_texts_fts (school_texts_fts) VALUES ('rebuild');
    UPDATE catalog SET version = version + 1 WHERE id = 1;
  `);
}

function toSchool(row: SchoolRow): School {
  return { id: row.id, name: row.name, city: row.city, state: row.state, imageUrl: row.image_url };
}
