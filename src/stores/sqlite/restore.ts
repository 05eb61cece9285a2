// `school-search restore <backup>`: puts a backup in the store's place, with no process on it.
//
// A restore while any process has the store open would leave that process writing into a file
// nobody opens again, or (with a copy over the live file) serving pages of two files: refused,
// tested as SQLite itself tells it, by the exclusive lock of a view of the store (file-view.ts),
// which every open connection prevents. The backup must be a sound store on its own (no log
// beside it); it is copied beside the store, checked, given a new identity and synced first. Under
// the check lock and the view's lock, then:
//
// - the current store file, if sound with its log, has its log folded into it (checkpoint), and
//   is kept, never deleted, at `<path>.replaced-<UTC time>`; a log that is not its own (or a
//   damaged store) is kept beside it as it was found (`<path>.replaced-<time>-wal`);
// - the -wal and -shm at the path are taken away before anything new is at the path, so that
//   nothing of the old store can be taken for the restored one's;
// - the copy is renamed into place (one atomic step: the path always names a whole file).
import { randomBytes } from 'node:crypto';
import { copyFileSync, constants, existsSync, linkSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BUSY_BUDGET_MS, primaryCode } from './errors.ts';
import { CheckLock, type FileView } from './file-view.ts';
import { fileAt } from './file-id.ts';
import { StoreFileError } from './store-file.error.ts';
import { sealCopy, type StoreCounts, syncDirectory } from './store-copy.ts';
import { BESIDE, checkLogBeside } from './store-files.ts';
import { readWal } from './wal-file.ts';

export interface RestoreReport extends StoreCounts {
  readonly source: string;
  /** Where the store that was in place is now kept (undefined: there was none). */
  readonly replaced: string | undefined;
  /** Files found beside the store that were kept beside the replaced one, as they were. */
  readonly keptBeside: readonly string[];
}

export async function restoreStore(
  path: string,
  source: string,
  options: { busyBudgetMs?: number } = {},
): Promise<RestoreReport> {
  const from = resolve(source);
  if (!existsSync(from)) throw StoreFileError.refused(`There is no backup at ${from}.`);
  if (existsSync(path) && realpathSync(from) === realpathSync(path))
    throw StoreFileError.refused(`${from} is the store itself: give the backup to restore from.`);
  if ((readWal(`${from}-wal`)?.committedFrames ?? 0) > 0)
    throw StoreFileError.refused(
      `The backup ${from} has a write-ahead log beside it (${from}-wal) with changes that are not in the file: ` +
        'restore from a file made by "school-search backup", or fold the log in first ' +
        `(sqlite3 ${from} "PRAGMA wal_checkpoint(TRUNCATE)").`,
    );

  const copy = `${path}.restoring-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    copyFileSync(from, copy, constants.COPYFILE_EXCL);
    const counts = sealCopy(copy, from);
    const lock = await takeLock(path, options.busyBudgetMs ?? BUSY_BUDGET_MS);
    try {
      const placed = existsSync(path) ? replace(path, copy, lock) : putWhereLost(path, copy);
      return { source: from, ...counts, ...placed };
    } finally {
      lock.release();
    }
  } finally {
    for (const suffix of ['', ...BESIDE]) rmSync(`${copy}${suffix}`, { force: true });
  }
}

/** Replaces the store file at `path` by `copy`, keeping the old one (see above). */
function replace(path: string, copy: string, lock: CheckLock): Omit<RestoreReport, 'source' | keyof StoreCounts> {
  const file = fileAt(path);
  if (!file) throw StoreFileError.refused(`The store file ${path} went away during the restore: run it again.`);
  let ownLog = true;
  let log: ReturnType<typeof checkLogBeside>;
  try {
    log = checkLogBeside(path);
  } catch (error) {
    if (!(error instanceof StoreFileError)) throw error;
    ownLog = false;
  }
  let view: FileView | undefined;
  let unreadable = false;
  try {
    view = lock.view(file, ownLog && log !== undefined);
  } catch (error) {
    // Damaged or no database at all (the view took its lock before it read that far, or the file
    // has no header SQLite could lock it by): nothing can be serving it.
    if (![11, 26].includes(primaryCode(error) ?? 0)) throw error;
    unreadable = true;
  }
  if (!view && !unreadable) throw inUse(path);
  try {
    // The log folded into the file, when it is the file's own and the two are sound together.
    const sound = view !== undefined && ownLog && (log === undefined || view.quickCheck() === 'ok');
    if (sound && log !== undefined) view?.checkpoint();
    const replaced = freeName(`${path}.replaced-${utcStamp()}`);
    linkSync(path, replaced);
    const keptBeside = clearBeside(path, replaced);
    renameSync(copy, path);
    syncDirectory(dirname(path));
    return { replaced, keptBeside };
  } finally {
    view?.close();
  }
}

/** Puts `copy` at `path`, where there is no store file (lost): what was left beside it is kept aside. */
function putWhereLost(path: string, copy: string): Omit<RestoreReport, 'source' | keyof StoreCounts> {
  const keptBeside = clearBeside(path, `${path}.replaced-${utcStamp()}`);
  try {
    // A link, not a rename: a store another process made at the path meanwhile is never replaced.
    linkSync(copy, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw StoreFileError.refused(`A store file appeared at ${path} during the restore: run it again.`);
    throw error;
  }
  syncDirectory(dirname(path));
  return { replaced: undefined, keptBeside };
}

/**
 * Takes away the -wal, -journal and -shm beside `path`: a log or journal that holds anything is
 * kept beside `keptAs` (`<keptAs>-wal`), as it was; empty ones and the -shm (an index SQLite
 * rebuilds from the log) are deleted.
 */
function clearBeside(path: string, keptAs: string): string[] {
  const kept: string[] = [];
  for (const suffix of BESIDE) {
    const file = `${path}${suffix}`;
    if (!existsSync(file)) continue;
    if (suffix !== '-shm' && statSync(file).size > 0) {
      renameSync(file, `${keptAs}${suffix}`);
      kept.push(`${keptAs}${suffix}`);
    } else rmSync(file, { force: true });
  }
  return kept;
}

function inUse(path: string): StoreFileError {
  return StoreFileError.refused(
    `The store ${path} is open in another process (a server or a school-search command): stop it first, ` +
      'then run the restore again. Nothing was changed.',
  );
}

/** Waits (asynchronously) while another process holds the check lock, for up to `budgetMs`. */
async function takeLock(path: string, budgetMs: number): Promise<CheckLock> {
  const deadline = performance.now() + budgetMs;
  for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
    try {
      return CheckLock.take(path);
    } catch (error) {
      if (primaryCode(error) !== 5 || performance.now() + delay > deadline) throw error;
      await sleep(delay);
    }
  }
}

/** 2026-11-30T14:05:09Z, without colons (file names on every system). */
function utcStamp(): string {
  return new Date()
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '');
}

function freeName(name: string): string {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${name}-${n}`;
    if (!existsSync(candidate) && !BESIDE.some((suffix) => existsSync(`${candidate}${suffix}`))) return candidate;
  }
}
