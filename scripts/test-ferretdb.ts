// npm run test:ferretdb — the API and security tests once more, with the app on the MongoDB
// adapter against FerretDB v1 (a real wire-protocol server; no MongoDB can run on the project's
// machines). Searches are answered by the in-process engine reading its catalog from FerretDB,
// as on MongoDB by default; the $text engine, whose $text FerretDB cannot run, answers the search
// rules with its pipelines run by mingo over the documents the adapter wrote to FerretDB
// (test/api/search.text-engine.test.ts).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FERRETDB_MISSING, ferretDbBinary } from '../test/support/ferretdb.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

if (!ferretDbBinary()) {
  process.stdout.write(`test:ferretdb: skipped: ${FERRETDB_MISSING}\n`);
  process.exit(0);
}
process.stdout.write('test:ferretdb: API and security tests on the MongoDB adapter, against FerretDB v1.24\n');
const result = spawnSync(join(ROOT, 'node_modules/.bin/vitest'), ['run', 'test/api', 'test/security', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, TEST_STORE: 'ferretdb', MONGODB_URI: '' },
});
process.exit(result.status ?? 1);
