// Help texts and the usage error (exit status 2): the one place that describes the commands.
export class UsageError extends Error {
  override readonly name: string = 'UsageError';
}

/** The user pressed Ctrl-C at a prompt. */
export class CancelledError extends Error {
  override readonly name: string = 'CancelledError';
}

/** partial: an import with --skip-invalid wrote the valid rows and left invalid ones out. */
export const EXIT = { ok: 0, failed: 1, usage: 2, partial: 3, cancelled: 130 } as const;

export const MAIN_HELP = `Usage: school-search <command> [options]

Commands:
  import <file> [--format <format>] [--encoding <name>] [--map <pairs> | --map-file <file>]
         [--skip-invalid] [--strict] [--dry-run]
                                              Import a directory file of schools into the store
  user create --email <address>               Create an API account; the password is read from
                                              standard input (prompted for on a terminal)
  user invite --email <address>               Mail an invitation link (valid 7 days) with which the
                                              address makes its own account (SIGNUP=invite or open)
  indexes                                     Create the MongoDB indexes now, and the Atlas Search
                                              index when MONGODB_SEARCH=atlas
  backup <file>                               Copy the embedded store to a new file, while servers
                                              run on it
  restore <file>                              Put a backup in the embedded store's place (no server
                                              or command may have the store open)

Options:
  -h, --help   Show this help; "school-search <command> --help" shows a command's help

The store is MongoDB when MONGODB_URI is set, else the SQLite file DATABASE_PATH (default
data/school-search.db). It is created when missing (not when the log of a lost store is still
beside it), and may be in use by the running API at the same time: a command waits for a lock
another process holds, up to 5 s.

Exit status: 0 done, 1 failed (invalid input, e-mail taken, store unavailable or refused),
2 usage error, 3 imported with invalid rows left out (import --skip-invalid).
`;

export const IMPORT_HELP = `Usage: school-search import <file> [--format <format>] [--encoding <name>]
                            [--map <field=Column,...>] [--map-file <mapping.json>]
                            [--skip-invalid] [--strict] [--dry-run]

Imports schools into the store. The whole file is checked first: if any row is invalid, nothing
is written and the invalid rows are listed with their line numbers (with --skip-invalid, the
valid rows are written and every invalid one is listed). Importing the same file again adds
nothing (schools are matched by id). The summary counts every row once: rows = inserted +
updated + unchanged + merged + skipped (left out by the format's policy) + invalid.

Schools are matched by id: the row's schoolid, else one derived from the directory's own key
(IPEDS UNITID; NCESSCH; PPIN; ODEF Provider and Source_Id), else from name + city + state/province (case,
accents and punctuation aside) + the first known of postal code, address and coordinates: two
schools of one name in one city at different places stay two. Two rows of one school are
merged: the later row wins, and the summary lists each with both lines and the reason, as
"line 812 replaces line 97 (same id in the source; school id …)" or "line 12 repeats line 11
exactly (same name, city, province and location; …)". State/province codes may be in
either case ("qc" is QC); full names in English or French ("Texas", "Québec",
"Colombie-Britannique") and unambiguous abbreviations ("Calif.", "Ont.", "P.E.I.") are read
as their code.

Formats (default: from the file name; a .csv file's header tells the directories from canonical CSV):
  ipeds    The NCES IPEDS directory file (HD<year>.csv) as distributed: Windows-1252.
           Administrative units (SECTOR=0) and institutions not active in the current year
           (CYACTIVE=3) are skipped. ADDR, ZIP, LATITUDE and LONGITUD give the location.
  odef     Statistics Canada's Open Database of Educational Facilities CSV (v2.1) as
           distributed: Windows-1252. Facility_Name, City (else CSDNAME), Prov_Terr (else
           PRUID), Full_Addr (else Street_No Street_Name), Postal_Code, Latitude, Longitude;
           ".." is "not available". The id is derived from "odef:<Provider>:<Source_Id>" when
           the row has both (ODEF's Index changes between releases), else from name + city +
           province + location: a school listed twice without a Source_Id, in two spellings
           at one address, is one school; namesakes at two addresses are two. ISCED flags give the level
           and grades, Facility_Type the type and tags.
  ccd      The NCES CCD school directory (ccd_sch_029_<year>: NCESSCH, SCH_NAME, LSTREET1,
           LCITY, LSTATE, LZIP, GSLO, GSHI, CHARTER_TEXT, SY_STATUS_TEXT …) or the Urban
           Institute's extract of it (ncessch, school_name, city_location, state_location,
           lowest/highest_grade_offered): UTF-8. Closed, inactive and future schools are
           skipped. The id is derived from "nces:<NCESSCH>".
  edge     The NCES EDGE public school geocode file (NCESSCH, LSTREE, LCITY, LZIP, LATCODE,
           LONGCODE): UTF-8. Creates no school: gives its location to each "nces:" school
           already in the store; rows of schools the store does not have are skipped.
  pss      The NCES Private School Survey public-use file (PPIN, PINST, PADDRS, PCITY, PSTABB,
           PZIP, LOGR<year>, HIGR<year>, LATITUDE<yy>, LONGITUDE<yy>, RELIG): UTF-8.
  hifld    HIFLD's Private Schools layer as CSV (NCESID, NAME, ADDRESS, CITY, STATE, ZIP,
           START_GRAD, END_GRADE, LEVEL_): UTF-8. pss and hifld give a school the same id,
           derived from "pss:<PPIN>".
  csv      UTF-8 CSV with a header: schoolname, city, stateprovince, and optionally image_url,
           schoolid (a UUID), aliases (separated by "|"), prominence (0-100), address,
           postal_code, latitude (-90 to 90) and longitude (-180 to 180), level (elementary,
           middle, high, other, postsecondary; from the grades when blank), lowest_grade and
           highest_grade (PK, K, 1-12), type (public, private, postsecondary) and tags
           (charter, catholic, separate, francophone, public_control, private_control,
           for_profit; separated by "|"). Blank is unknown; latitude and longitude go together.
  ndjson   One JSON object per line with the same fields; aliases and tags arrays of strings,
           prominence, latitude and longitude numbers. Also .jsonl.
  json     One JSON array of such objects (a file whose first character is "[", or .json).
           Each element is a row, reported as "element 4 (line 26)".

Any other file (CSV, NDJSON or a JSON array): a column mapping names the column or field of
each field: --map schoolname=Facility_Name,city=City,stateprovince=Prov_Terr, or --map-file
with one JSON object of the same pairs ({"schoolname": "Facility_Name", ...}); --map's pairs
override the file's. Fields: schoolname, city, stateprovince (required), address,
postal_code, latitude, longitude, aliases, prominence, schoolid, image_url, level,
lowest_grade, highest_grade, type, tags, and source_id
with id_prefix (the directory's name: the id is derived from "<id_prefix>:<source_id>"). A
field not mapped is read from a column of its own name, if any; other columns are ignored
and listed once in the summary.

Encodings (--encoding; default: Windows-1252 for ipeds and odef, UTF-8 for the others and
mapped files, and UTF-8 for any file that starts with a UTF-8 byte order mark or is valid
UTF-8; gzip files are read decompressed):
  utf-8          Also utf8. Bytes that are not UTF-8 are an error naming each line, never
                 replaced: a Windows-1252 file needs --encoding windows-1252.
  windows-1252   Also cp1252.
  latin1         Also iso-8859-1. Read as windows-1252, as the WHATWG Encoding Standard
                 (TextDecoder) does: the two differ only in bytes 0x80-0x9F, control characters
                 in Latin-1 that no directory holds.
  Names are case-insensitive; other encodings are refused.

Options:
  -f, --format <format>     ipeds, odef, ccd, edge, pss, hifld, csv, ndjson or json (with a
                            mapping: csv, ndjson, json)
  -m, --map <pairs>         field=Column pairs, separated by commas; repeatable
      --map-file <file>     A JSON object of field: Column pairs
  -e, --encoding <name>     utf-8, windows-1252 or latin1 (see above)
      --skip-invalid        Write the valid rows and leave the invalid ones out, listing every one
                            on stderr with its line; exit status 3 when any was left out
      --strict              Refuse the file (exit 1, nothing written) when two rows of one school
                            differ, listing them, instead of keeping the later row
  -n, --dry-run             Read and check everything, print the summary (what would be inserted,
                            updated, unchanged, merged, skipped; the invalid rows) and write
                            nothing. Exit status as for an import. An embedded store that does
                            not exist is not created
  -h, --help                Show this help

Exit status: 0 imported (or would be), 1 invalid rows (nothing written) or a store failure,
2 usage error, 3 imported (or would be) with --skip-invalid, but invalid rows were left out.

Environment: MONGODB_URI, else DATABASE_PATH.
`;

export const USER_HELP = `Usage: school-search user create --email <address>
       school-search user invite --email <address>

Creates an account for the API and prints its id. The password is the first line of standard
input; on a terminal it is asked for twice, without echo. Example:
  printf '%s\\n' "$PASSWORD" | school-search user create --email ops@example.com

"user invite" mails the address a link (single use, valid 7 days) to the dashboard, where it
chooses a password and so makes its account. Needs SIGNUP=invite or open; the mail goes to
SMTP_URL (without it, outside production, the e-mail is printed on standard error instead).

Options:
  --email <address>   The account's e-mail (unique, case-insensitive)
  -h, --help          Show this help

Environment: MONGODB_URI, else DATABASE_PATH; ARGON2_MEMORY_KIB, ARGON2_TIME_COST, ARGON2_PARALLELISM;
SIGNUP, SMTP_URL, MAIL_FROM, PUBLIC_BASE_URL (invite).
`;

export const INDEXES_HELP = `Usage: school-search indexes

Creates every index of the MongoDB store (MONGODB_URI) that does not exist yet; the API does the
same at start-up. First rewrites the search fields of schools written by an earlier version (the
text and Atlas engines answer 503 until it has). With MONGODB_SEARCH=atlas it also creates (or
updates to the committed definition, compared by meaning) the Atlas Search index
MONGODB_SEARCH_INDEX (default schools_search), which Atlas then builds in the background; it has
no synonym mappings (the queries carry the synonyms), so it fits the shared tiers (M0, Flex) too.
Running it again changes nothing. The embedded store needs nothing: it is a no-op there.

Environment: MONGODB_URI, MONGODB_SEARCH, MONGODB_SEARCH_INDEX.
`;

export const BACKUP_HELP = `Usage: school-search backup <file>

Copies the embedded store (DATABASE_PATH) to <file>, a new file, while servers and commands go
on using the store: SQLite's online backup, one consistent snapshot. The copy is written beside
<file> first, checked (SQLite's quick_check, a store's tables), given an identity of its own, and
synced to disk; only then is it put at <file>, which must not exist yet (nothing is
overwritten). Prints one line: what was copied, and its size.

The copy is a whole store in one file: restore it with "school-search restore <file>", or start a
server on it (DATABASE_PATH=<file>). Copying the store file with cp while a server runs is not a
backup: its latest changes are in the log beside it (-wal), and a copy taken while it changes
may be damaged.

Environment: DATABASE_PATH (the embedded store only; MongoDB has mongodump and Atlas backups).
`;

export const RESTORE_HELP = `Usage: school-search restore <file>

Puts the backup <file> in the embedded store's place (DATABASE_PATH). Stop every server and
command on the store first: while any process has it open, the restore is refused and nothing
changes. The backup must be a sound store (SQLite's quick_check), whole in its file (no log
beside it: files made by "school-search backup" are); it is copied beside the store, given a new
identity and synced before anything else happens.

The store it replaces is never deleted: it is kept at DATABASE_PATH.replaced-<UTC time>, with its
log folded in when the two belong together; a log that was not its own (or that makes it fail
the check) is kept beside it as found (….replaced-<time>-wal). The -wal and -shm beside
DATABASE_PATH are taken away, then the copy is renamed into place in one step. This is also the
way back when a server refuses to start because the store file was lost or is not the one its
log belongs to.

Environment: DATABASE_PATH (the embedded store only; MongoDB has mongorestore and Atlas backups).
`;
