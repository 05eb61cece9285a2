// The import, timed as an operator sees it: `school-search import <file>` in a process of its own
// on a fresh store, wall clock from spawn to exit (Node's start-up and the store's close included).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ImportRun {
  readonly seconds: number;
  /** The command's own report (rows, inserted, read and write times). */
  readonly stdout: string;
  readonly inserted: number;
}

export function timeImport(file: string, env: NodeJS.ProcessEnv): Promise<ImportRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['bin/school-search.js', 'import', file], {
      cwd: PROJECT_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) {
        reject(new Error(`school-search import exited with ${signal ?? code}: ${stderr.trim().slice(-2000)}`));
        return;
      }
      resolve({ seconds, stdout, inserted: Number(/^\s*inserted\s+(\d+)/m.exec(stdout)?.[1] ?? NaN) });
    });
  });
}
