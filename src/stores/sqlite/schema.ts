// Schema migrations, applied in order; PRAGMA user_version records how many ran.
// Never edit a released entry: append a new one.
export const SCHEMA: readonly string[] = [
  `
  CREATE TABLE schools (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    city TEXT NOT NULL,
    state TEXT NOT NULL,
    image_url TEXT,
    aliases TEXT NOT NULL DEFAULT '[]',
    sort_key TEXT NOT NULL
  );
  -- One row per searchable text of a school (its name and each alias), so that all query words
  -- must match within one name, and the score can use that name's length.
  -- state, sort_key and school_id repeat the school's so that a search can filter, order and
  -- page on this table alone, and read schools only for the rows of the page.
  CREATE TABLE school_texts (
    rowid INTEGER PRIMARY KEY,
    school_rowid INTEGER NOT NULL REFERENCES schools (rowid) ON DELETE CASCADE,
    length INTEGER NOT NULL,
    terms TEXT NOT NULL,
    state TEXT NOT NULL,
    sort_key TEXT NOT NULL,
    school_id TEXT NOT NULL
  );
  CREATE INDEX school_texts_by_school ON school_texts (school_rowid);
  -- Terms arrive folded by the domain; unicode61 only splits them. detail=none: no positions are
  -- needed for AND-of-prefixes, which keeps the index small. prefix indexes make 1-3 letter
  -- prefixes (typeahead) cheap.
  CREATE VIRTUAL TABLE school_texts_fts USING fts5 (
    terms, content = 'school_texts', content_rowid = 'rowid',
    tokenize = 'unicode61 remove_diacritics 0', detail = none, prefix = '1 2 3'
  );
  CREATE TRIGGER school_texts_ai AFTER INSERT ON school_texts BEGIN
    INSERT INTO school_texts_fts (rowid, terms) VALUES (new.rowid, new.terms);
  END;
  CREATE TRIGGER school_texts_ad AFTER DELETE ON school_texts BEGIN
    INSERT INTO school_texts_fts (school_texts_fts, rowid, terms) VALUES ('delete', old.rowid, old.terms);
  END;

  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    -- Usage totals are kept with the user, updated in the same transaction as each record.
    request_count INTEGER NOT NULL DEFAULT 0,
    total_cost INTEGER NOT NULL DEFAULT 0,
    last_request_at TEXT
  );

  CREATE TABLE tokens (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    digest TEXT NOT NULL UNIQUE,
    hint TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    revoked_at TEXT
  );
  CREATE INDEX tokens_by_user ON tokens (user_id, created_at);
  CREATE INDEX tokens_by_expiry ON tokens (expires_at);

  CREATE TABLE api_requests (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    request_made TEXT NOT NULL,
    time_made TEXT NOT NULL,
    cost INTEGER NOT NULL
  );
  CREATE INDEX api_requests_by_user_time ON api_requests (user_id, time_made DESC, id DESC);
  `,
];
