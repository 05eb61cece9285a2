// Which file a path names: a file moved, deleted or replaced under an open connection is told by
// its device and inode, not by its name.
import { statSync } from 'node:fs';
import { StoreUnavailableError } from '../../domain/shared/errors.ts';

export interface FileId {
  readonly dev: number;
  readonly ino: number;
}

/** The file at `path` now, or undefined when there is none. */
export function fileAt(path: string): FileId | undefined {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    // Not a missing file but an unreachable one (a path component no longer a directory, no permission).
    throw new StoreUnavailableError(`Cannot reach the store file at ${path}.`, { cause: error });
  }
  return stat ? { dev: stat.dev, ino: stat.ino } : undefined;
}

export function sameFile(a: FileId | undefined, b: FileId | undefined): boolean {
  return a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;
}
