// The command line end to end, as a child process on a store in a temporary directory.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sharedData } from '../support/shared-data.ts';
import { uuidV5 } from '../../src/domain/shared/ids.ts';
import { Argon2Hasher } from '../../src/security/argon2.hasher.ts';
import { createServices } from '../../src/composition/services.ts';
import { SqliteStore } from '../../src/stores/sqlite/store.ts';
import { REPO, runCli } from '../support/cli.ts';

const IPEDS = sharedData('ipeds-hd2022.csv');
const IPEDS_FILE = IPEDS.path;
const ODEF_FILE = join(REPO, 'test/fixtures/odef-sample.csv');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\n$/;

/** The summary's counts add up: rows = inserted + updated + unchanged + merged + skipped + invalid. */
function expectSummaryAddsUp(stdout: string): void {
  const count = (label: string) => Number(new RegExp(`^ {2}${label} +(\\d+)$`, 'm').exec(stdout)?.[1]);
  const parts = ['inserted', 'updated', 'unchanged', 'merged', 'skipped', 'invalid'].map(count);
  expect(parts.every(Number.isInteger), stdout).toBe(true);
  expect(parts.reduce((a, b) => a + b, 0)).toBe(count('rows'));
}

let dir: string;
let env: Record<string, string>;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'school-search-cli-'));
  // A directory that does not exist yet: the command creates it and the store.
  env = { DATABASE_PATH: join(dir, 'nested', 'store.db') };
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('school-search import', () => {
  IPEDS.test('creates the store, imports the IPEDS file, and adds nothing the second time', async () => {
    const first = await runCli(['import', IPEDS_FILE], { env });
    expect(first.stderr).toContain('reading: 100%');
    expect(first.stdout).toMatch(/format ipeds/);
    expect(first.stdout).toMatch(/^ {2}rows +6256$/m);
    expect(first.stdout).toMatch(/^ {2}inserted +6112$/m);
    expect(first.stdout).toMatch(/^ {2}skipped +144$/m);
    expect(first.stdout).toMatch(/^ +71 {2}administrative unit \(SECTOR=0\)$/m);
    expect(first.stdout).toMatch(/^ +73 {2}not active in the current year \(CYACTIVE=3\)$/m);
    expect(first.code).toBe(0);
    expectSummaryAddsUp(first.stdout);

    const second = await runCli(['import', '--format', 'ipeds', IPEDS_FILE], { env });
    expect(second.stdout).toMatch(/^ {2}inserted +0$/m);
    expect(second.stdout).toMatch(/^ {2}unchanged +6112$/m);
    expect(second.code).toBe(0);
    expectSummaryAddsUp(second.stdout);

    const store = await SqliteStore.open({ path: env['DATABASE_PATH']! });
    expect(await store.schools.count()).toBe(6112);
    expect((await store.schools.findById(uuidV5('ipeds:166027')))?.name).toBe('Harvard University');
    await store.close();
  });

  it('exits 1 with the bad rows and writes nothing', async () => {
    const file = join(dir, 'bad.csv');
    writeFileSync(file, 'schoolname,city,stateprovince\nReed College,Portland,OR\nFoo College,Springfield,XX\n');
    const result = await runCli(['import', file], { env });
    expect(result.stderr).toContain('bad.csv: 1 row is invalid; nothing was imported.');
    expect(result.stderr).toContain('line 3: stateprovince "XX" is not');
    expect(result.stdout).toBe('');
    expect(result.code).toBe(1);
    const store = await SqliteStore.open({ path: env['DATABASE_PATH']! });
    expect(await store.schools.count()).toBe(0);
    await store.close();
  });

  it('with --skip-invalid, imports the valid rows, lists every invalid one on stderr and exits 3', async () => {
    const file = join(dir, 'some-bad.csv');
    const rows = [
      'schoolname,city,stateprovince',
      'Reed College,Portland,OR',
      'Smith College,Northampton,Massachusetts',
    ];
    for (let i = 0; i < 25; i++) rows.push(`Foo College ${i},Springfield,XX`);
    writeFileSync(file, `${rows.join('\n')}\n`);
    for (const args of [['--dry-run'], []]) {
      const result = await runCli(['import', '--skip-invalid', ...args, file], { env });
      expect(result.stdout).toMatch(/^ {2}rows +27$/m);
      expect(result.stdout).toMatch(/^ {2}inserted +2$/m);
      expect(result.stdout).toMatch(/^ {2}invalid +25$/m);
      expect(result.stderr).toContain(
        args.length > 0
          ? 'school-search: warning: ' +
              file +
              ': 25 invalid rows would be left out; every other row would be imported:\n'
          : 'school-search: warning: ' +
              file +
              ': 25 invalid rows were left out (--skip-invalid); every other row was imported:\n',
      );
      // Every one, not the first 20.
      expect(result.stderr).toContain('  line 4: stateprovince "XX" is not');
      expect(result.stderr).toContain('  line 28: stateprovince "XX" is not');
      expect(result.code).toBe(3);
      expectSummaryAddsUp(result.stdout);
    }
    const store = await SqliteStore.open({ path: env['DATABASE_PATH']! });
    expect(await store.schools.count()).toBe(2);
    await store.close();
    // Nothing left out: exit 0.
    const good = join(dir, 'good.csv');
    writeFileSync(good, `${rows.slice(0, 3).join('\n')}\n`);
    const clean = await runCli(['import', '--skip-invalid', good], { env });
    expect([clean.code, clean.stdout]).toEqual([0, expect.stringMatching(/^ {2}unchanged +2$/m)]);
    expect(clean.stdout).toMatch(/^ {2}invalid +0$/m);
    expectSummaryAddsUp(clean.stdout);
  });

  it('with --map or --map-file, imports a JSON array of any fields, lists the unused ones and each bad element', async () => {
    const file = join(dir, 'facilities.json');
    const rows = [
      {
        Facility_Name: 'École Sainte-Bernadette',
        City: 'Saguenay',
        Prov_Terr: 'Québec',
        Postal_Code: 'G7H 3T7',
        Index: 1,
      },
      { Facility_Name: 'École Sainte-Bernadette', City: 'Saguenay', Prov_Terr: 'qc', Postal_Code: 'G7S 1S1', Index: 2 },
      { Facility_Name: 'Nowhere School', City: 'Springfield', Prov_Terr: 'Atlantis', Index: 3 },
    ];
    writeFileSync(file, JSON.stringify(rows, null, 2));
    const mapFile = join(dir, 'mapping.json');
    writeFileSync(mapFile, JSON.stringify({ schoolname: 'Facility_Name', city: 'City', postal_code: 'Postal_Code' }));
    const runs = [
      ['--map', 'schoolname=Facility_Name,city=City,stateprovince=Prov_Terr', '--map', 'postal_code=Postal_Code'],
      ['--map-file', mapFile, '--map', 'stateprovince=Prov_Terr'],
    ];
    for (const [i, args] of runs.entries()) {
      const result = await runCli(['import', ...args, '--skip-invalid', file], { env });
      expect(result.stdout).toContain('(format json, encoding utf-8)');
      expect(result.stdout).toMatch(/^ {2}rows +3$/m);
      expect(result.stdout).toMatch(i === 0 ? /^ {2}inserted +2$/m : /^ {2}unchanged +2$/m);
      expect(result.stdout).toMatch(/^ {2}invalid +1$/m);
      expect(result.stdout).toContain('Columns not used: "Index"\n');
      expect(result.stderr).toContain('  element 3 (line 16): stateprovince "Atlantis" is not a US state');
      expect(result.code).toBe(3);
      expectSummaryAddsUp(result.stdout);
    }
    for (const args of [
      ['--map', 'school=Facility_Name'],
      ['--map', 'schoolname=Facility_Name,source_id=Index'],
      ['--map-file', join(dir, 'absent.json')],
      ['--map', 'schoolname=Facility_Name', '--format', 'odef'],
    ]) {
      const result = await runCli(['import', ...args, file], { env });
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
    }
  });

  it('exits 1 for a missing file, 2 for usage errors', async () => {
    const missing = await runCli(['import', join(dir, 'absent.csv')], { env });
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('Cannot read')]);
    for (const args of [
      [],
      ['import'],
      ['import', 'a.csv', 'b.csv'],
      ['import', '--format', 'xml', 'a.csv'],
      ['import', '--bogus', 'a.csv'],
      ['frobnicate'],
    ]) {
      const result = await runCli(args, { env });
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
    }
    const unknown = join(dir, 'schools.txt');
    writeFileSync(unknown, 'name;town\n');
    const undetectable = await runCli(['import', unknown], { env });
    expect([undetectable.code, undetectable.stderr]).toEqual([2, expect.stringContaining('pass --format')]);
  });
});

describe('school-search import of the ODEF file', () => {
  const storeCount = async () => {
    const store = await SqliteStore.open({ path: env['DATABASE_PATH']! });
    try {
      return await store.schools.count();
    } finally {
      await store.close();
    }
  };

  it('reads Windows-1252 by default, merges the duplicates and lists each with both lines', async () => {
    const result = await runCli(['import', ODEF_FILE], { env });
    expect(result.stdout).toContain('(format odef, encoding windows-1252)');
    expect(result.stdout).toMatch(/^ {2}rows +30$/m);
    expect(result.stdout).toMatch(/^ {2}schools +28$/m);
    expect(result.stdout).toMatch(/^ {2}inserted +28$/m);
    expect(result.stdout).toMatch(/^ {2}merged +2$/m);
    expect(result.stdout).toMatch(/^ {2}skipped +0$/m);
    expect(result.stdout).toContain('Rows merged into an earlier row of the same school (the later row wins):\n');
    expect(result.stdout).toMatch(
      /^ {2}line 12 repeats line 11 exactly \(same id in the source; school id [0-9a-f-]{36}\)$/m,
    );
    expect(result.stdout).toMatch(/^ {2}line 22 replaces line 4 \(same id in the source; school id [0-9a-f-]{36}\)$/m);
    expect(result.code).toBe(0);
    expectSummaryAddsUp(result.stdout);
    expect(await storeCount()).toBe(28);
  });

  it('with --strict, exits 1 listing the duplicates and writes nothing', async () => {
    const result = await runCli(['import', '--strict', ODEF_FILE], { env });
    expect(result.stderr).toContain('odef-sample.csv: 1 row is invalid; nothing was imported.');
    expect(result.stderr).toMatch(/line 22: has the same school id [0-9a-f-]{36} as line 4, with different values/);
    expect([result.code, result.stdout]).toEqual([1, '']);
    expect(await storeCount()).toBe(0);
  });

  it('with --dry-run, prints the summary and writes nothing, not even a new store file', async () => {
    const dry = await runCli(['import', '--dry-run', ODEF_FILE], { env });
    expect(dry.stdout).toMatch(
      /^Dry run: nothing was written\. Importing .*odef-sample\.csv \(format odef, encoding windows-1252\) into .*store\.db \(which does not exist yet\) would give:$/m,
    );
    expect(dry.stdout).toMatch(/^ {2}inserted +28$/m);
    expect(dry.stdout).toMatch(/^ {2}merged +2$/m);
    expect(dry.stdout).toMatch(/^ {2}invalid +0$/m);
    expect(dry.code).toBe(0);
    expectSummaryAddsUp(dry.stdout);
    expect(existsSync(env['DATABASE_PATH']!)).toBe(false);

    expect((await runCli(['import', ODEF_FILE], { env })).code).toBe(0);
    const again = await runCli(['import', '-n', ODEF_FILE], { env });
    expect(again.stdout).toMatch(/^ {2}unchanged +28$/m);
    expect(again.code).toBe(0);
    expectSummaryAddsUp(again.stdout);
  });

  it('with --dry-run, exits 1 for invalid rows after printing the summary, and lists them', async () => {
    const file = join(dir, 'bad.csv');
    writeFileSync(file, 'schoolname,city,stateprovince\nReed College,Portland,or\nFoo College,Springfield,XX\n');
    const result = await runCli(['import', '--dry-run', file], { env });
    expect(result.stdout).toMatch(/^ {2}schools +1$/m);
    expect(result.stdout).toMatch(/^ {2}invalid +1$/m);
    expectSummaryAddsUp(result.stdout);
    expect(result.stderr).toContain('line 3: stateprovince "XX" is not');
    expect(result.code).toBe(1);
    expect(existsSync(env['DATABASE_PATH']!)).toBe(false);
  });

  it('with --encoding utf-8, exits 1 naming the lines and suggesting windows-1252; cp1252 reads it; an unknown name is a usage error', async () => {
    const utf8 = await runCli(['import', '--encoding', 'UTF8', ODEF_FILE], { env });
    expect(utf8.stderr).toContain('line 2: is not valid UTF-8: byte 6 of the line is 0xC9');
    expect(utf8.stderr).toContain('import it with --encoding windows-1252');
    expect(utf8.code).toBe(1);
    expect(await storeCount()).toBe(0);

    const cp1252 = await runCli(['import', '--encoding', 'CP1252', ODEF_FILE], { env });
    expect([cp1252.code, cp1252.stdout]).toEqual([0, expect.stringMatching(/^ {2}inserted +28$/m)]);

    for (const args of [['--encoding', 'ebcdic'], ['--encoding'], ['-e', 'utf-16']]) {
      const result = await runCli(['import', ...args, ODEF_FILE], { env });
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
    }
    expect((await runCli(['import', '--encoding', 'ebcdic', ODEF_FILE], { env })).stderr).toContain(
      '--encoding must be utf-8, windows-1252 or latin1',
    );
  });
});

describe('school-search user create', () => {
  const login = async (store: SqliteStore, email: string, password: string) => {
    const { auth } = createServices({ store, hasher: new Argon2Hasher(), tokenTtlSeconds: 60 });
    return auth.login(email, password);
  };

  it('creates an account from the password on standard input; logging in then works', async () => {
    const result = await runCli(['user', 'create', '--email', 'Ops@Example.com'], {
      env,
      input: 'a-long-password\nnot part of it\n',
    });
    expect(result.stdout).toMatch(UUID);
    expect(result.stderr).toContain('Created the account ops@example.com.');
    expect(result.code).toBe(0);

    const store = await SqliteStore.open({ path: env['DATABASE_PATH']! });
    const token = await login(store, 'ops@example.com', 'a-long-password');
    expect(token.userId).toBe(result.stdout.trim());
    await expect(login(store, 'ops@example.com', 'not part of it')).rejects.toThrow('do not match');
    await store.close();
  });

  it('works while another process has the store open, and refuses a taken e-mail with exit 1', async () => {
    const store = await SqliteStore.open({ path: env['DATABASE_PATH']! });
    await store.schools.count();
    const created = await runCli(['user', 'create', '--email', 'ops@example.com'], { env, input: 'a-long-password' });
    expect(created.code).toBe(0);
    // Seen through the connection that was open all along.
    expect((await store.users.findByEmail('ops@example.com'))?.id).toBe(created.stdout.trim());

    const taken = await runCli(['user', 'create', '--email', 'OPS@example.com'], { env, input: 'another-password\n' });
    expect(taken.stderr).toContain('An account with the e-mail ops@example.com exists already.');
    expect(taken.stdout).toBe('');
    expect(taken.code).toBe(1);
    await store.close();
  });

  it('exits 1 for a short password, 2 without --email', async () => {
    const short = await runCli(['user', 'create', '--email', 'x@example.com'], { env, input: 'short\n' });
    expect([short.code, short.stderr]).toEqual([1, expect.stringContaining('8 to 1024 characters')]);
    const noEmail = await runCli(['user', 'create'], { env, input: 'a-long-password\n' });
    expect([noEmail.code, noEmail.stderr]).toEqual([2, expect.stringContaining('--email')]);
  });
});

describe('school-search --help', () => {
  it('prints the commands, and each command its own help', async () => {
    const main = await runCli(['--help'], { env });
    expect([main.code, main.stdout]).toEqual([0, expect.stringMatching(/^Usage: school-search <command>/)]);
    const importHelp = await runCli(['import', '--help'], { env });
    expect([importHelp.code, importHelp.stdout]).toEqual([
      0,
      expect.stringMatching(/^Usage: school-search import <file>/),
    ]);
    for (const words of [
      'odef',
      '--encoding <name>',
      '--strict',
      '--dry-run',
      'latin1',
      'odef:<Provider>:<Source_Id>',
      'later row wins',
    ])
      expect(importHelp.stdout).toContain(words);
    const userHelp = await runCli(['user', 'create', '--help'], { env });
    expect([userHelp.code, userHelp.stdout]).toEqual([0, expect.stringMatching(/^Usage: school-search user create/)]);
  });
});

describe('school-search user invite', () => {
  it('mails the address an invitation (printed without SMTP_URL) whose link makes the account', async () => {
    const result = await runCli(['user', 'invite', '--email', 'New@Example.com'], {
      env: { ...env, SIGNUP: 'invite', NODE_ENV: 'development', PUBLIC_BASE_URL: 'https://api.example.org' },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Invited new@example.com');
    const token = /https:\/\/api\.example\.org\/dashboard#invitation\/(ssl_[\w-]{43})/.exec(result.stderr)?.[1];
    expect(token).toBeDefined();
    const store = await SqliteStore.open({ path: env['DATABASE_PATH']! });
    const { signUp } = createServices({
      store,
      hasher: new Argon2Hasher(),
      tokenTtlSeconds: 60,
      accountLinks: { signUp: 'invite', mail: true, dashboardUrl: () => '' },
    });
    expect((await signUp.acceptInvitation(token!, 'a-long-password')).userId).toMatch(/^[0-9a-f-]{36}$/);
    await store.close();
  });

  it('refuses with exit 1 when SIGNUP is off', async () => {
    const result = await runCli(['user', 'invite', '--email', 'new@example.com'], {
      env: { ...env, SIGNUP: 'off', NODE_ENV: 'development' },
    });
    expect(result.stderr).toContain('SIGNUP is off');
    expect(result.code).toBe(1);
  });
});
