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
    sort_key TEXT NOT NULL,
    -- The search texts the domain derived (name and aliases): [{"terms": "...", "length": n}].
    texts TEXT NOT NULL
  );
  -- One row per searchable text of a school (its name and each alias), so that all query words
  -- must match within one name, and the score can use that name's length. The table is rebuilt
  -- after every import that changes the catalog, with rowids in result order (length, then
  -- sort key, then school id): a search then reads matches in rowid order, which the full-text
  -- index yields natively, and stops when its page is full, however many schools match.
  -- state, sort_key and school_id repeat the school's for that reason.
  CREATE TABLE school_texts (
    rowid INTEGER PRIMARY KEY,
    school_rowid INTEGER NOT NULL,
    length INTEGER NOT NULL,
    terms TEXT NOT NULL,
    state TEXT NOT NULL,
    sort_key TEXT NOT NULL,
    school_id TEXT NOT NULL
  );
  CREATE INDEX school_texts_by_length ON school_texts (length);
  -- Terms arrive folded by the domain; unicode61 only splits them. detail=column: column filters
  -- (the state) without positions. Prefix indexes make 2-3 letter prefixes (typeahead) cheap;
  -- one-letter terms match whole words only.
  CREATE VIRTUAL TABLE school_texts_fts USING fts5 (
    terms, state, content = 'school_texts', content_rowid = 'rowid',
    tokenize = 'unicode61 remove_diacritics 0', detail = column, prefix = '2 3'
  );
  -- Bumped by every import that changes the catalog: cached match counts are valid for one version.
  CREATE TABLE catalog (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
  );
  INSERT INTO catalog (id, version) VALUES (1, 0);

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
  // The search moved into the API process (src/search/memory/): the full-text tables go, and
  // each school gains its prominence (0 until an import gives one). The catalog's version is
  // bumped so that every API process reads the catalog again.
  `
  DROP TABLE school_texts_fts;
  DROP TABLE school_texts;
  ALTER TABLE schools DROP COLUMN texts;
  ALTER TABLE schools DROP COLUMN sort_key;
  ALTER TABLE schools ADD COLUMN prominence INTEGER NOT NULL DEFAULT 0;
  UPDATE catalog SET version = version + 1 WHERE id = 1;
  `,
  // Named API keys are tokens too: every existing token is a session token. last_used_at is
  // written at most once a minute per token (src/domain/accounts/auth.service.ts).
  `
  ALTER TABLE tokens ADD COLUMN kind TEXT NOT NULL DEFAULT 'session' CHECK (kind IN ('session', 'key'));
  ALTER TABLE tokens ADD COLUMN name TEXT;
  ALTER TABLE tokens ADD COLUMN last_used_at TEXT;
  `,
  // Where each school is, when its directory says: NULL when unknown. The catalog's version is
  // not bumped: every existing school is unchanged (all four unknown).
  `
  ALTER TABLE schools ADD COLUMN address TEXT;
  ALTER TABLE schools ADD COLUMN postal_code TEXT;
  ALTER TABLE schools ADD COLUMN latitude REAL;
  ALTER TABLE schools ADD COLUMN longitude REAL;
  `,
  // Usage per user and UTC day, kept with each record in its transaction (records.ts), so that
  // the dashboard's chart reads one row per day instead of every record of those days; filled
  // here from the records there are. Rows outlive the records a retention purge deletes.
  `
  CREATE TABLE usage_days (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    day TEXT NOT NULL,
    count INTEGER NOT NULL,
    cost INTEGER NOT NULL,
    PRIMARY KEY (user_id, day)
  ) WITHOUT ROWID;
  INSERT INTO usage_days (user_id, day, count, cost)
    SELECT user_id, substr(time_made, 1, 10), count(*), sum(cost) FROM api_requests GROUP BY user_id, substr(time_made, 1, 10);
  `,
  // What each school is (src/domain/catalog/school-kind.ts), NULL when unknown; tags joined by '|', NULL
  // when none. source_key is the row's key in its directory (`nces:010000500870`), kept for a
  // later issue that exposes it. Not bumping the catalog's version: no school changed.
  `
  ALTER TABLE schools ADD COLUMN level TEXT;
  ALTER TABLE schools ADD COLUMN lowest_grade TEXT;
  ALTER TABLE schools ADD COLUMN highest_grade TEXT;
  ALTER TABLE schools ADD COLUMN type TEXT;
  ALTER TABLE schools ADD COLUMN tags TEXT;
  ALTER TABLE schools ADD COLUMN source_key TEXT;
  `,
  // When an import last created or changed each school (GET /v1/schools/{id}: updated_at), ISO
  // 8601 UTC. Schools stored before this migration take its time: they changed no later.
  `
  ALTER TABLE schools ADD COLUMN updated_at TEXT;
  UPDATE schools SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now');
  `,
  // Links in e-mails (sign-up, reset, invitation), by the digest of their token only, and the
  // outbox of mail not yet delivered (src/domain/mail/mail.service.ts). A sign-up link holds the hash
  // of the chosen password: the account is made when the link is used.
  `
  CREATE TABLE links (
    id TEXT PRIMARY KEY,
    purpose TEXT NOT NULL CHECK (purpose IN ('signup', 'reset', 'invite')),
    email TEXT NOT NULL,
    user_id TEXT,
    password_hash TEXT,
    digest TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
  );
  CREATE INDEX links_by_email ON links (email, purpose);
  CREATE INDEX links_by_expiry ON links (expires_at);

  CREATE TABLE mail_outbox (
    id TEXT PRIMARY KEY,
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    discard_after TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    last_error TEXT
  );
  CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at);
  `,
  // Where each search looked (RequestRecord.search): the records of before stay NULL in all three
  // and answer without them. page_ because OFFSET and LIMIT are SQL keywords.
  `
  ALTER TABLE api_requests ADD COLUMN state_code TEXT;
  ALTER TABLE api_requests ADD COLUMN page_offset INTEGER;
  ALTER TABLE api_requests ADD COLUMN page_limit INTEGER;
  `,
  // The rest of a search's parameters (RequestRecord.search): NULL when it had none of one, and on
  // the records of before. Levels and types as their comma-joined values (none holds a comma).
  `
  ALTER TABLE api_requests ADD COLUMN levels TEXT;
  ALTER TABLE api_requests ADD COLUMN types TEXT;
  ALTER TABLE api_requests ADD COLUMN near_latitude REAL;
  ALTER TABLE api_requests ADD COLUMN near_longitude REAL;
  ALTER TABLE api_requests ADD COLUMN radius_km REAL;
  `,
  // Credentials (src/domain/accounts/credentials.ts): each account's password version, bumped by every
  // change of its password, and the first version whose API keys hold; each token's version and
  // when its session's password was given (NULL before: its creation stands for it). Each link's
  // count of e-mails (a pending link is mailed again). The outbox's message holds a placeholder
  // for its link, which is derived when sent (src/domain/accounts/link.ts): the link's id, where it
  // points, and which secret derives it. Messages queued before have none and are sent as written.
  `
  ALTER TABLE users ADD COLUMN password_version INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE users ADD COLUMN keys_from_version INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE tokens ADD COLUMN password_version INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE tokens ADD COLUMN authenticated_at TEXT;
  ALTER TABLE links ADD COLUMN mailed INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE mail_outbox ADD COLUMN link_id TEXT;
  ALTER TABLE mail_outbox ADD COLUMN link_url TEXT;
  ALTER TABLE mail_outbox ADD COLUMN link_secret TEXT;
  `,
  // Publishable keys (decision 0025): a key's scope as JSON (origins and budgets), NULL on every
  // other token. Each record's key (NULL: a session token, and every record of before) and page
  // origin; the records of one key read newest first by their own index. Usage per day and
  // source (key, origin; '' for none), counted with each record as usage_days is: what the
  // usage split and the key filter's totals read. Records of before count as sessions'.
  `
  ALTER TABLE tokens ADD COLUMN publishable TEXT;
  ALTER TABLE api_requests ADD COLUMN key_id TEXT;
  ALTER TABLE api_requests ADD COLUMN origin TEXT;
  CREATE INDEX api_requests_by_key ON api_requests (user_id, key_id, time_made DESC, id DESC) WHERE key_id IS NOT NULL;
  CREATE TABLE usage_sources (
    user_id TEXT NOT NULL,
    day TEXT NOT NULL,
    key_id TEXT NOT NULL,
    origin TEXT NOT NULL,
    count INTEGER NOT NULL,
    cost INTEGER NOT NULL,
    PRIMARY KEY (user_id, day, key_id, origin)
  ) WITHOUT ROWID;
  INSERT INTO usage_sources (user_id, day, key_id, origin, count, cost)
    SELECT user_id, day, '', '', count, cost FROM usage_days;
  `,
  // Incremental index updates (docs/search.md, deltas): the catalog version that last changed each
  // school, indexed, so that a search engine reads only the schools an import changed; the version
  // from which that is known (the schools changed before this migration have 0, so an engine
  // whose index is older than it reads the whole catalog); and a random stamp given by every
  // bump, so that one version number in two histories of a store (a backup restored and
  // imported into again) is never taken for the same catalog (a persisted index's key).
  `
  ALTER TABLE schools ADD COLUMN changed_in INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX schools_by_change ON schools (changed_in);
  ALTER TABLE catalog ADD COLUMN changes_from INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE catalog ADD COLUMN stamp TEXT NOT NULL DEFAULT '';
  UPDATE catalog SET changes_from = version, stamp = lower(hex(randomblob(6)));
  `,
];
