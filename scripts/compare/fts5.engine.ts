// SQLite FTS5 (built into node:sqlite) behind the SearchEngine port, configured as a competent
// developer would configure it for a school-name typeahead, so that `npm run bench:compare` can
// measure the engine most teams reach first beside the in-process index and MiniSearch. Used by
// the comparison only: nothing in src/ imports it.
//
// The choices, one by one:
//   - one in-memory database: an FTS5 table of the text (name, alternative names, city) whose
//     rowid is that of a plain table holding what a hit returns (id, name, city, state, image)
//     and the prominence; the state is a filter on the plain table (an index on it), as the
//     contract's stateCode is, not a text column.
//   - tokenize 'unicode61 remove_diacritics 2': case and accents folded by SQLite (2 also folds
//     the accents of decomposed letters). The text is given to it through the core's own
//     normalisation first (src/domain/shared/normalize.ts, words(): apostrophes removed, so
//     "Queen's" is one word, queens, as the query side has it): unicode61 alone would index
//     queen + s, and "queens" would not find it.
//   - prefix = '1 2 3 4': prefix indexes for the first one to four letters, so that a word
//     still being typed ("harv*") is a lookup rather than a scan of the term index.
//   - the query: the plan's significant words (the same words the index and MiniSearch are given:
//     folded, stop words left out), each as a quoted prefix ("harv"*), all required (FTS5's
//     implicit AND); when that finds nothing and there are several words, any of them (OR), ranked
//     by bm25, which then favours the schools that hold more of them.
//   - ranking: bm25 with column weights name 10, alternative names 5, city 1 (a word in the name
//     counts most, a city word least), multiplied by 1 + prominence / 100 (×1 to ×2, the factor
//     the MiniSearch adapter found best): bm25 is negative, better when lower, so the product
//     orders the flagship first among near-equal text matches. ORDER BY that, then the id.
//   - paging: LIMIT/OFFSET in SQL; the total is a count(*) of the same match (and filter).
//   - no typo tolerance: FTS5 has none (its trigram tokenizer matches substrings, not edits; a
//     spellfix table is an extension node:sqlite does not ship). The typo classes measure that.
//   - no synonym table: FTS5 has no synonyms either; a developer would have to add them to the
//     indexed text, as the "MiniSearch + synonyms" variant does. Out of the box, as most use it.
//   - score: bm25 × boost divided by the page's best, in [0, 1], for display only.
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import type { EngineHit, EnginePage, EngineQuery, SearchEngine } from '../../src/domain/search/engine.port.ts';
import { words } from '../../src/domain/shared/normalize.ts';

/** bm25 column weights: name, alternative names, city. */
const WEIGHTS = '10.0, 5.0, 1.0';

interface Row {
  id: string;
  name: string;
  city: string;
  state: string;
  image_url: string | null;
  rank: number;
}

export interface Fts5Page extends EnginePage {
  /** Rows SQLite returned for the page (it ranks every match to sort them, inside SQL). */
  readonly materialized: number;
}

export class Fts5Engine implements SearchEngine {
  readonly #db = new DatabaseSync(':memory:');
  readonly #size: number;
  readonly #page: StatementSync;
  readonly #pageInState: StatementSync;
  readonly #count: StatementSync;
  readonly #countInState: StatementSync;

  constructor(rows: readonly CatalogSchool[]) {
    const db = this.#db;
    db.exec(`
      CREATE TABLE school (
        rowid INTEGER PRIMARY KEY, id TEXT NOT NULL, name TEXT NOT NULL, city TEXT NOT NULL,
        state TEXT NOT NULL, image_url TEXT, boost REAL NOT NULL
      );
      CREATE VIRTUAL TABLE school_text USING fts5(
        name, aliases, city, tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3 4'
      );
    `);
    const school = db.prepare('INSERT INTO school VALUES (?, ?, ?, ?, ?, ?, ?)');
    const text = db.prepare('INSERT INTO school_text (rowid, name, aliases, city) VALUES (?, ?, ?, ?)');
    const folded = (s: string) => words(s).join(' ');
    db.exec('BEGIN');
    for (const [i, r] of rows.entries()) {
      school.run(i + 1, r.id, r.name, r.city, r.state, r.imageUrl, 1 + r.prominence / 100);
      text.run(i + 1, folded(r.name), r.aliases.map(folded).join(' '), folded(r.city));
    }
    db.exec('COMMIT');
    db.exec('CREATE INDEX school_state ON school (state)');
    db.exec("INSERT INTO school_text (school_text) VALUES ('optimize')");
    this.#size = rows.length;
    const select = (where: string) =>
      db.prepare(`
        SELECT s.id, s.name, s.city, s.state, s.image_url, bm25(school_text, ${WEIGHTS}) * s.boost AS rank
        FROM school_text JOIN school s ON s.rowid = school_text.rowid
        WHERE school_text MATCH ?${where}
        ORDER BY rank, s.id LIMIT ? OFFSET ?`);
    const count = (where: string) =>
      db.prepare(`
        SELECT count(*) AS n FROM school_text JOIN school s ON s.rowid = school_text.rowid
        WHERE school_text MATCH ?${where}`);
    this.#page = select('');
    this.#pageInState = select(' AND s.state = ?');
    this.#count = count('');
    this.#countInState = count(' AND s.state = ?');
  }

  get size(): number {
    return this.#size;
  }

  async search(query: EngineQuery): Promise<EnginePage> {
    return this.searchSync(query);
  }

  /** The search itself (node:sqlite is synchronous): what the speed benchmark times. */
  searchSync(query: EngineQuery): Fts5Page {
    const terms = query.plan.words.map((w) => `"${w.text.replaceAll('"', '""')}"*`);
    if (terms.length === 0) return { total: 0, hits: [], materialized: 0 };
    let page = this.#run(terms.join(' '), query);
    if (page.total === 0 && terms.length > 1) page = this.#run(terms.join(' OR '), query);
    return page;
  }

  #run(match: string, query: EngineQuery): Fts5Page {
    const state = query.stateCode;
    const total = (
      (state === undefined ? this.#count.get(match) : this.#countInState.get(match, state)) as { n: number }
    ).n;
    if (total === 0) return { total: 0, hits: [], materialized: 0 };
    const rows = (state === undefined
      ? this.#page.all(match, query.limit, query.offset)
      : this.#pageInState.all(match, state, query.limit, query.offset)) as unknown as Row[];
    const best = rows[0]?.rank ?? -1;
    const hits: EngineHit[] = rows.map((r) => ({
      school: { id: r.id, name: r.name, city: r.city, state: r.state, imageUrl: r.image_url },
      score: best < 0 ? r.rank / best : 1,
    }));
    return { total, hits, materialized: rows.length };
  }
}
