// Stopping after the store file was moved away without any request noticing (e.g. an operator
// `mv`s it, then restarts): the records it acknowledged must be in the moved file, and no WAL
// with them may be left at DATABASE_PATH, where the next start would apply it to whatever file
// is put there.
import { existsSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, expect, test } from 'vitest';
import { fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import { startFaultApp, tempDir } from '../support/processes.ts';

let dir: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  dir?.remove();
  dir = undefined;
});

test('when the store file is moved and the API stops before any request notices, then the moved file holds every acknowledged record', async () => {
  dir = tempDir('close-moved');
  const app = await startFaultApp({ dataDir: join(dir.path, 'data') });
  const user = await app.user();
  const tids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await fetchSchoolSearch({ client: user.client, query: { query: 'harv' } });
    expect(r.response!.status).toBe(200);
    tids.push(r.data!.apirequest.tid);
  }
  const moved = join(dir.path, 'moved.db');
  renameSync(app.dbPath, moved);
  await app.close();

  const wal = `${app.dbPath}-wal`;
  expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
  const db = new DatabaseSync(moved, { readOnly: true });
  try {
    const rows = db.prepare('SELECT id FROM api_requests').all() as Array<{ id: string }>;
    expect(rows.map((r) => r.id).sort()).toEqual([...tids].sort());
  } finally {
    db.close();
  }
});
