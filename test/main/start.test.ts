// The README's start command, as a process: a new store is created and seeded, the demo user can
// log in, Harvard is found, and SIGTERM stops the server cleanly.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClient } from '../../generated/client/index.ts';
import { createToken, fetchSchoolSearch, getReadiness } from '../../generated/sdk.gen.ts';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../../src/config.ts';

let dir: string;
let child: ChildProcess;
let baseUrl: string;
const lines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'school-search-main-'));
  child = spawn(process.execPath, ['src/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      PUBLIC_BASE_URL: 'https://api.example.org/',
      DATABASE_PATH: join(dir, 'store.db'),
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  baseUrl = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const entry = JSON.parse(line) as Record<string, unknown>;
      lines.push(entry);
      if (entry['msg'] === 'listening') resolve(String(entry['url']));
    });
  });
}, 60_000);

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('npm start (src/main.ts)', () => {
  test('when started on a store that does not exist, then it seeds it and serves the demo user', async () => {
    const seeded = lines.find((l) => l['msg'] === 'seed loaded');
    expect(seeded).toMatchObject({ inserted: 6112 });
    const client = createClient({ baseUrl });
    expect((await getReadiness({ client })).data).toEqual({ status: 'ok', store: 'sqlite' });
    const login = await createToken({ client, body: { email: DEMO_EMAIL, password: DEMO_PASSWORD } });
    expect(login.response!.status).toBe(200);
    const authed = createClient({ baseUrl, headers: { Authorization: `Bearer ${login.data!.token}` } });
    const search = await fetchSchoolSearch({ client: authed, query: { query: 'harvard' } });
    const first = search.data!.requestresult.schools[0]!;
    expect(first.schoolname).toBe('Harvard University');
    expect(first.image_url).toBe(`https://api.example.org/images/schools/${first.schoolid}.svg`);
  });

  test('when sent SIGTERM, then it stops and exits 0', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(lines.map((l) => l['msg'])).toContain('stopped');
  });
});
