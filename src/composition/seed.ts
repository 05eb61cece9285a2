// The seed import of a first start, in a child process (seed-child.ts). In the server's own
// process the import's drafts (all of them, until the one transaction) took its peak RSS from
// ~220 to ~420 MiB, and V8 kept most of that heap for the rest of the process's life; in a
// child, the server's peak is the index build's, and the memory is the system's again when the
// child exits. The child reads the same environment, so it opens the same store; the store's
// own locking (SQLite's, or MongoDB's) lets it write while the server holds the store open, as
// `school-search import` does beside running instances.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ImportCounts } from '../domain/catalog/catalog.ports.ts';
import type { SeedMessage } from './seed-child.ts';

const CHILD = fileURLToPath(new URL('./seed-child.ts', import.meta.url));
/** The end of the child's stderr kept for the error: the reason it failed, not its whole log. */
const STDERR_KEPT = 4096;

export interface SeedImport {
  /** The child's process id (in the log line that says the seed is loading). */
  readonly pid: number | undefined;
  /** The import's counts once the child has committed it and exited. */
  readonly done: Promise<ImportCounts>;
  /** Ends the child (the server is stopping): its transaction is rolled back, `done` rejects. */
  stop(): void;
}

export function importSeed(): SeedImport {
  // Node's default flags, not the server's: the server's small young generation suits requests,
  // not an import's millions of objects. NODE_COMPILE_CACHE (set by the server) carries over.
  const child = fork(CHILD, [], { execArgv: [], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_KEPT);
  });
  let sent: SeedMessage | undefined;
  child.on('message', (message: SeedMessage) => {
    sent = message;
  });
  const done = new Promise<ImportCounts>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0 && sent && 'counts' in sent) resolve(sent.counts);
      // Its own words when it could say why; otherwise how it ended and the end of its stderr.
      else if (sent && 'error' in sent) reject(new Error(`the seed was not imported: ${sent.error}`));
      else
        reject(
          new Error(
            `the seed import stopped (${signal ?? `exit code ${code}`})${stderr.trim() ? `: ${stderr.trim()}` : ''}`,
          ),
        );
    });
  });
  return {
    pid: child.pid,
    done,
    stop: () => void (child.exitCode === null && child.kill('SIGTERM')),
  };
}
