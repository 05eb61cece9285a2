// npm run lint:names — one file-naming convention for the code of the tree: lower-case words joined
// by dashes, and a dot only before the role a file plays when it is one of a kind that recurs
// (`auth.service.ts`, `token.store.ts`, `memory.engine.ts`, `csv.reader.ts`, `*.test.ts`). A
// reader then tells a file's subject from its role at a glance, and no two files name one thing
// two ways (as `search.fields.ts` once stood beside `search-index.ts`). Folders: lower-case words and dashes.
// Generated code, the Python client and data are not ours to name.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The roles a file name may end with, before its extension. */
export const ROLES = [
  'service',
  'store',
  'ports',
  'port',
  'engine',
  'reader',
  'command',
  'routes',
  'error',
  'worker',
  'middleware',
  'mailer',
  'metrics',
  'hasher',
  'migration',
  'contract',
  'config',
] as const;

const WORDS = '[a-z0-9]+(?:-[a-z0-9]+)*';
// A test is named for what it tests, role included: `memory.engine.test.ts`, `fakes.contract.test.ts`.
const FILE = new RegExp(`^${WORDS}(?:\\.(?:${ROLES.join('|')}))?(?:\\.test)?\\.(?:ts|js|mjs|cjs|css|html)$`);
const FOLDER = new RegExp(`^${WORDS}$`);
const ROOTS = ['src', 'clients/typescript', 'clients/school-picker', 'scripts', 'test', 'bin'];

/** The names in `paths` (repository-relative) that break the convention, with why. */
export function misnamed(paths: readonly string[]): string[] {
  const problems = new Set<string>();
  for (const path of paths) {
    if (!/\.(ts|js|mjs|cjs|css|html)$/.test(path)) continue;
    const parts = path.split('/');
    const file = parts.at(-1)!;
    if (!FILE.test(file))
      problems.add(
        `${path}: file names are lower-case words and dashes, a dot only before a role (${ROLES.join(', ')})`,
      );
    for (const folder of parts.slice(1, -1))
      if (!FOLDER.test(folder)) problems.add(`${path}: folder "${folder}" is not lower-case words and dashes`);
  }
  return [...problems];
}

if (import.meta.main) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const paths = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...ROOTS], { cwd: root })
    .toString()
    .split('\n')
    .filter(Boolean);
  const problems = misnamed(paths);
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  if (problems.length > 0) {
    process.stderr.write(`lint:names: ${problems.length} names break the convention (scripts/lint/file-names.ts)\n`);
    process.exit(1);
  }
  process.stdout.write(`lint:names: ${paths.length} files, one convention\n`);
}
