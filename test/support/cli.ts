// Runs bin/school-search.js as operators do: a separate process, configured by the environment.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: string[], options: { env: Record<string, string>; input?: string }): Promise<CliResult> {
  const child = spawn('node', [join(REPO, 'bin/school-search.js'), ...args], {
    cwd: REPO,
    env: {
      ...process.env,
      // Node 24 from the project, as npx would provide it; the machine's node may be older.
      PATH: `${join(REPO, 'node_modules/.bin')}:${process.env['PATH'] ?? ''}`,
      // The smallest costs config allows: a few hashes per test run stay fast.
      ARGON2_MEMORY_KIB: '19456',
      ARGON2_TIME_COST: '2',
      ARGON2_PARALLELISM: '1',
      // The embedded store (DATABASE_PATH) unless a test names a MongoDB itself.
      MONGODB_URI: '',
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
