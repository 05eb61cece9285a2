// Issue 38, row 3: working reset links could be read from a copy of the store files after the
// mail was delivered (the outbox held each message, link included, until it was sent; its text
// stayed in WAL frames and free pages). A reset mail is delivered, the store's files are copied
// as they are (the main file, its -wal and -shm, the quota counters), and every byte of the copy
// is searched for a link token: none is there, and none of what looks like one opens anything.
// The same while the mail is still waiting in the outbox (the mail server refusing).
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { requestPasswordReset, resetPassword, signUp } from '../../generated/sdk.gen.ts';
import { RATE_LIMITS_OFF } from '../../src/http/middleware/rate-limit.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { linkIn, startSmtp, type TestSmtp } from '../support/smtp.ts';

let app: TestApp | undefined;
let smtp: TestSmtp | undefined;
const copies: string[] = [];
afterEach(async () => {
  await app?.close();
  await smtp?.close();
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
  app = undefined;
  smtp = undefined;
});

/** Every file of the store (its name and the names beside it), copied byte for byte as they are now. */
function copyStoreFiles(dbPath: string): { dir: string; bytes: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'store-copy-'));
  copies.push(dir);
  const name = basename(dbPath);
  const files = readdirSync(dirname(dbPath)).filter((f) => f.startsWith(name));
  expect(files).toContain(name);
  for (const f of files) copyFileSync(join(dirname(dbPath), f), join(dir, f));
  return { dir, bytes: Buffer.concat(files.map((f) => readFileSync(join(dir, f)))) };
}

/** Everything in `bytes` shaped like a link token, as text in any of the encodings a store writes. */
function tokensIn(bytes: Buffer): string[] {
  const found = new Set<string>();
  for (const text of [bytes.toString('latin1'), bytes.toString('utf16le'), bytes.subarray(1).toString('utf16le')])
    for (const match of text.matchAll(/ssl_[A-Za-z0-9_-]{43}/g)) found.add(match[0]);
  return [...found];
}

describe('links in copies of the store files', () => {
  test('when a reset mail was delivered, then a copy of the store files holds no working link', async () => {
    smtp = await startSmtp();
    app = await startTestApp({ store: 'sqlite', smtpUrl: smtp.url, signUp: 'open', rateLimits: RATE_LIMITS_OFF });
    const a = app;
    const users = [];
    for (let i = 0; i < 4; i++) users.push(await a.userClient());
    const delivered: string[] = [];
    for (const user of users) {
      await requestPasswordReset({ client: a.client(), body: { email: user.email } });
      delivered.push(linkIn(await smtp.next(user.email), 'reset').token);
    }
    await signUp({ client: a.client(), body: { email: 'someone-new@example.org' } });
    delivered.push(linkIn(await smtp.next('someone-new@example.org'), 'confirm').token);
    expect(existsSync(`${a.dbPath}-wal`)).toBe(true);
    const { bytes } = copyStoreFiles(a.dbPath);
    const found = tokensIn(bytes);
    console.log(`store files copied after delivery: ${bytes.length} bytes, ${found.length} link-shaped strings`);
    for (const token of delivered) expect(found).not.toContain(token);
    // Whatever looks like a link opens nothing.
    for (const token of found) {
      const r = await resetPassword({ client: a.client(), body: { token, new_password: 'taken-over-123' } });
      expect(r.response!.status).toBe(410);
    }
  });

  test('when a reset mail is still waiting in the outbox, then a copy of the store files holds no link either', async () => {
    smtp = await startSmtp();
    app = await startTestApp({ store: 'sqlite', smtpUrl: smtp.url, rateLimits: RATE_LIMITS_OFF });
    const a = app;
    const user = await a.userClient();
    smtp.refusing = true;
    expect((await requestPasswordReset({ client: a.client(), body: { email: user.email } })).response!.status).toBe(
      503,
    );
    const { bytes } = copyStoreFiles(a.dbPath);
    expect(tokensIn(bytes)).toEqual([]);
    // The outbox still delivers it, link and all, once the mail server takes mail again.
    smtp.refusing = false;
    a.clock.advance(61);
    expect(await a.services.mail.retryDue()).toBe(1);
    const { token } = linkIn(await smtp.next(user.email), 'reset');
    expect(tokensIn(copyStoreFiles(a.dbPath).bytes)).not.toContain(token);
    expect(
      (await resetPassword({ client: a.client(), body: { token, new_password: 'the-new-password-1' } })).response!
        .status,
    ).toBe(204);
  });
});
