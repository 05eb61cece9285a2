// npm run test:ferretdb — the API and security tests once more, with the app on the MongoDB
// adapter against FerretDB v1 (a real wire-protocol server; no MongoDB can run on the project's
// machines). Searches are answered by the in-process engine reading its catalog from FerretDB,
// as on MongoDB by default; the $text engine, whose $text FerretDB cannot run, answers the search
// rules with its pipelines run by mingo over the documents the adapter wrote to FerretDB
// (test/api/search-text-engine.test.ts).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FERRETDB_MISSING, ferretDbBinary } from './server.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The API, security and single-process rate-limit tests (the two-process ones start their own servers on the embedded store). */
const SUITES = [
  'test/api',
  'test/security',
  'test/rate-limit/limits.test.ts',
  'test/rate-limit/login-defaults.test.ts',
];

if (!ferretDbBinary()) {
  process.stdout.write(`test:ferretdb: skipped: ${FERRETDB_MISSING}\n`);
  process.exit(0);
}
process.stdout.write('test:ferretdb: API and security tests on the MongoDB adapter, against FerretDB v1.24\n');
const result = spawnSync(join(ROOT, 'node_modules/.bin/vitest'), ['run', ...SUITES, ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, TEST_STORE: 'ferretdb', MONGODB_URI: '' },
});
process.exit(result.status ?? 1);
