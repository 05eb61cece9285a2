// The store's files are not what a store needs, and no process may go on with them: it stops (the
// server, every CLI command) with a message that names the files and the ways out, and leaves
// them as they are. At run time the same findings are 503s (connection.ts).
export class StoreFileError extends Error {
  override readonly name = 'StoreFileError';
  /** What was found, in a few words ("is empty", …), where the message says more. */
  readonly finding: string | undefined;

  /** The file at `path` is there but is no store (`what`: "is empty", "is not an SQLite database", …). */
  static notAStore(path: string, what: string): StoreFileError {
    return new StoreFileError(
      `The store file ${path} ${what}. It is not made into a new, empty store, which would lose every user, token ` +
        `and request record it should hold: restore it from a backup, or move it away (mv ${path} ${path}.broken) ` +
        'to start with a new, empty store.',
      what,
    );
  }

  /** A backup or restore that cannot be made as asked; `message` says why and what to do. */
  static refused(message: string): StoreFileError {
    return new StoreFileError(message);
  }

  /** No file at `path`, but what was beside it (`leftovers`: its log, its shared-memory index) still is. */
  static lost(path: string, leftovers: readonly string[]): StoreFileError {
    return new StoreFileError(
      `There is no store file at ${path}, but ${list(leftovers)} of a store that was there ${leftovers.length > 1 ? 'are' : 'is'} ` +
        'still beside it: the store was deleted or moved away, and its last changes may be only in that log. ' +
        'No new, empty store is made there, which would hide the loss of every user, token and request record ' +
        'and take the old log for its own. Either put the store file back at that path (or run ' +
        `"school-search restore <backup>"), or, to start with a new, empty store, move ${leftovers.length > 1 ? 'all of them' : 'it'} ` +
        `away (mv ${leftovers.join(' ')} <elsewhere>/).`,
    );
  }

  /** The log (`wal`) beside the store file at `path` was written by another file (`why`). */
  static mixed(path: string, wal: string, why: string): StoreFileError {
    return new StoreFileError(
      `The store file ${path} cannot be opened with the write-ahead log beside it (${wal}): ${why}. SQLite would ` +
        'copy that log into the file and damage it, so nothing was opened or changed. Either put back the store file ' +
        `that log belongs to (or run "school-search restore <backup>"), or move the log away to open ${path} as it ` +
        `is, without the changes the log holds (mv ${wal} ${path}-shm <elsewhere>/).`,
    );
  }

  private constructor(message: string, finding?: string) {
    super(message);
    this.finding = finding;
  }
}

function list(paths: readonly string[]): string {
  return paths.length === 1 ? paths[0]! : `${paths.slice(0, -1).join(', ')} and ${paths.at(-1)!}`;
}
