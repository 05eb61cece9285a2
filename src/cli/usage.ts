// Help texts and the usage error (exit status 2): the one place that describes the commands.
export class UsageError extends Error {}

/** The user pressed Ctrl-C at a prompt. */
export class CancelledError extends Error {}

export const EXIT = { ok: 0, failed: 1, usage: 2, cancelled: 130 } as const;

export const MAIN_HELP = `Usage: school-search <command> [options]

Commands:
  import <file> [--format ipeds|csv|ndjson]   Import a directory file of schools into the store
  user create --email <address>               Create an API account; the password is read from
                                              standard input (prompted for on a terminal)
  indexes                                     Create the MongoDB indexes now, and the Atlas Search
                                              index when MONGODB_SEARCH=atlas

Options:
  -h, --help   Show this help; "school-search <command> --help" shows a command's help

The store is MongoDB when MONGODB_URI is set, else the SQLite file DATABASE_PATH (default
data/school-search.db). It is created when missing, and may be in use by the running API at the
same time.

Exit status: 0 done, 1 failed (invalid input, e-mail taken, store unavailable), 2 usage error.
`;

export const IMPORT_HELP = `Usage: school-search import <file> [--format ipeds|csv|ndjson]

Imports schools into the store. The whole file is checked first: if any row is invalid, nothing
is written and the invalid rows are listed with their line numbers. Importing the same file again
adds nothing (schools are matched by id).

Formats (default: from the file name; a .csv file's header tells IPEDS from canonical CSV):
  ipeds    The NCES IPEDS directory file (HD<year>.csv) as distributed: Windows-1252.
           Administrative units (SECTOR=0) and institutions not active in the current year
           (CYACTIVE=3) are skipped.
  csv      UTF-8 CSV with a header: schoolname, city, stateprovince, and optionally image_url,
           schoolid (a UUID) and aliases (separated by "|").
  ndjson   One JSON object per line with the same fields; aliases is an array of strings.
           Also .jsonl.

Options:
  -f, --format <format>   ipeds, csv or ndjson
  -h, --help              Show this help

Environment: MONGODB_URI, else DATABASE_PATH.
`;

export const USER_HELP = `Usage: school-search user create --email <address>

Creates an account for the API and prints its id. The password is the first line of standard
input; on a terminal it is asked for twice, without echo. Example:
  printf '%s\\n' "$PASSWORD" | school-search user create --email ops@example.com

Options:
  --email <address>   The account's e-mail (unique, case-insensitive)
  -h, --help          Show this help

Environment: MONGODB_URI, else DATABASE_PATH; ARGON2_MEMORY_KIB, ARGON2_TIME_COST, ARGON2_PARALLELISM.
`;

export const INDEXES_HELP = `Usage: school-search indexes

Creates every index of the MongoDB store (MONGODB_URI) that does not exist yet; the API does the
same at start-up. First rewrites the search fields of schools written by an earlier version (the
text and Atlas engines answer 503 until it has). With MONGODB_SEARCH=atlas it also loads the
synonym mappings (collections search_synonyms, search_translations) from the reviewed synonym
table and creates (or updates to the committed definition, compared by meaning) the Atlas Search
index MONGODB_SEARCH_INDEX (default schools_search), which Atlas then builds in the background.
Running it again changes nothing. The embedded store needs nothing: it is a no-op there.

Environment: MONGODB_URI, MONGODB_SEARCH, MONGODB_SEARCH_INDEX.
`;
