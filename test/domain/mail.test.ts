// The outbox's rules (src/domain/mail/mail.service.ts) on the in-memory fakes: a message is stored
// before it is tried, kept after a failure with waits that double (30 s, 60 s, 120 s, … up to an
// hour), deleted once delivered, and dropped (reported) once its link has expired; each message
// is sent once per claim, with the same id (its Message-ID) at every attempt; a link is put in
// only when the message is sent, so the outbox never holds it.
import { describe, expect, test } from 'vitest';
import { MailUnavailableError } from '../../src/domain/shared/errors.ts';
import { LINK_PLACEHOLDER, linkSecrets, linkToken } from '../../src/domain/mail/link-token.ts';
import { linkDigest } from '../../src/domain/accounts/link.ts';
import { MailService, retryWaitMs } from '../../src/domain/mail/mail.service.ts';
import type { MailMessage, OutboxEntry, OutgoingMail } from '../../src/domain/mail/mail.ports.ts';
import { FakeClock, MemoryMailOutbox } from '../support/fakes/index.ts';

const MESSAGE: MailMessage = { to: 'ada@example.org', subject: 'Hello', text: 'Hello, Ada.' };
const HOUR = 3600_000;
const SECRETS = linkSecrets(['a-test-secret-of-this-suite-0123456789']);

function setup(options: { secrets?: typeof SECRETS } = {}) {
  const clock = new FakeClock();
  const outbox = new MemoryMailOutbox();
  const sent: OutgoingMail[] = [];
  const mailer = { down: false, slow: undefined as Promise<void> | undefined };
  const events = { failed: [] as OutboxEntry[], retried: [] as OutboxEntry[], discarded: [] as string[] };
  const mail = new MailService({
    outbox,
    mailer: {
      send: async (m) => {
        if (mailer.slow) await mailer.slow;
        if (mailer.down) throw new Error('451 busy');
        sent.push(m);
      },
    },
    clock,
    secrets: options.secrets ?? SECRETS,
    events: {
      failed: (e) => events.failed.push(e),
      retried: (e) => events.retried.push(e),
      discarded: (e, why) => events.discarded.push(`${e.to}: ${why}`),
    },
  });
  return { clock, outbox, sent, mailer, events, mail };
}

const text = (m: OutgoingMail) => ({ to: m.to, subject: m.subject, text: m.text });

describe('MailService', () => {
  test('when the mail server takes the message, then it is sent once and nothing stays in the outbox', async () => {
    const { mail, sent, outbox } = setup();
    await mail.send(MESSAGE, new Date(Date.now() + HOUR));
    expect(sent.map(text)).toEqual([MESSAGE]);
    expect(outbox.entries.size).toBe(0);
  });

  test('when it refuses, then MailUnavailableError, the message is kept and retried after 30 s, 60 s, … until it goes out, with one id', async () => {
    const { mail, sent, outbox, mailer, clock, events } = setup();
    mailer.down = true;
    await expect(mail.send(MESSAGE, new Date(clock.now().getTime() + HOUR))).rejects.toBeInstanceOf(
      MailUnavailableError,
    );
    expect([...outbox.entries.values()].map((e) => e.attempts)).toEqual([1]);
    const [id] = outbox.entries.keys();
    clock.advance(29_000);
    expect(await mail.retryDue()).toBe(0);
    expect(events.failed).toHaveLength(1);
    clock.advance(1_000);
    expect(await mail.retryDue()).toBe(0);
    expect(events.failed.map((e) => e.attempts)).toEqual([1, 2]);
    mailer.down = false;
    clock.advance(60_000);
    expect(await mail.retryDue()).toBe(1);
    expect(sent.map(text)).toEqual([MESSAGE]);
    // The id the Message-ID is made of: the same as the failed attempts', so a mail client folds copies.
    expect(sent.map((m) => m.id)).toEqual([id]);
    expect(events.retried).toHaveLength(1);
    expect(outbox.entries.size).toBe(0);
  });

  test('when its link expires before it goes out, then it is dropped and reported, not sent', async () => {
    const { mail, sent, mailer, clock, events, outbox } = setup();
    mailer.down = true;
    await expect(mail.send(MESSAGE, new Date(clock.now().getTime() + HOUR))).rejects.toThrow();
    mailer.down = false;
    clock.advance(HOUR + 1);
    expect(await mail.retryDue()).toBe(0);
    expect(sent).toEqual([]);
    expect(events.discarded).toEqual([`${MESSAGE.to}: expired`]);
    expect(outbox.entries.size).toBe(0);
  });

  test('when the mail server takes 10 s a message and rounds come every 15 s from two processes, then no message goes out twice', async () => {
    // Ten messages queued and a slow mail server: a round that claimed them all for a minute
    // and sent them one by one had the last ones claimed again by the next round (5 of 10 sent
    // twice, seen with 10 s a message).
    const { mail, sent, mailer, clock, outbox } = setup();
    mailer.down = true;
    for (let i = 0; i < 10; i++) {
      await expect(
        mail.send({ ...MESSAGE, subject: `m${i}` }, new Date(clock.now().getTime() + HOUR)),
      ).rejects.toThrow();
    }
    mailer.down = false;
    clock.advance(31_000);
    const other = new MailService({
      outbox,
      mailer: { send: async (m) => slowSend(m) },
      clock,
      secrets: SECRETS,
    });
    const rounds: Promise<number>[] = [];
    let elapsed = 0;
    const slowSend = async (m: OutgoingMail) => {
      clock.advance(10_000);
      sent.push(m);
      elapsed += 10_000;
      // Each process's timer, every 15 s.
      if (elapsed % 15_000 < 10_000) rounds.push(mail.retryDue(), other.retryDue());
    };
    const first = new MailService({ outbox, mailer: { send: slowSend }, clock, secrets: SECRETS });
    rounds.push(first.retryDue());
    for (let settled = 0; settled < rounds.length; settled++) await rounds[settled];
    expect(sent.map((m) => m.subject).sort()).toEqual([...Array(10).keys()].map((i) => `m${i}`));
    expect(outbox.entries.size).toBe(0);
  });

  test('when a round of this process is under way, then another call does nothing: it claims nothing', async () => {
    const { mail, mailer, clock, outbox } = setup();
    mailer.down = true;
    for (let i = 0; i < 3; i++)
      await expect(mail.send(MESSAGE, new Date(clock.now().getTime() + HOUR))).rejects.toThrow();
    mailer.down = false;
    clock.advance(31_000);
    let release!: () => void;
    mailer.slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    const round = mail.retryDue();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await mail.retryDue()).toBe(0);
    // One entry is held by the round; the two others are still due for anyone's claim.
    const due = [...outbox.entries.values()].filter((e) => e.nextAttemptAt <= clock.now());
    expect(due).toHaveLength(2);
    mailer.slow = undefined;
    release();
    expect(await round).toBe(3);
  });

  test('when a message has a link, then the outbox holds the placeholder and the link id only, and the mail the link', async () => {
    const { mail, sent, mailer, clock, outbox } = setup();
    const id = '0f2a4c66-7b1e-4a3c-9d5e-1f2a3b4c5d6e';
    const token = linkToken(SECRETS.current, id);
    const message: MailMessage = {
      ...MESSAGE,
      text: `Open ${LINK_PLACEHOLDER} soon.`,
      link: { id, url: 'https://x.test/dashboard#reset/', secretId: SECRETS.current.id },
    };
    mailer.down = true;
    await expect(mail.send(message, new Date(clock.now().getTime() + HOUR))).rejects.toThrow();
    const stored = JSON.stringify([...outbox.entries.values()]);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain('ssl_');
    mailer.down = false;
    clock.advance(31_000);
    await mail.retryDue();
    expect(sent.map((m) => m.text)).toEqual([`Open https://x.test/dashboard#reset/${token} soon.`]);
    // The token is the link's: its digest is what the store keeps of it.
    expect(linkDigest(token)).toMatch(/^[0-9a-f]{64}$/);
  });

  test("when a queued message's link was made with a secret no longer configured, then it is dropped, not sent with a dead link", async () => {
    const old = linkSecrets(['the-secret-before-it-was-rotated-000000']);
    const before = setup({ secrets: old });
    const message: MailMessage = {
      ...MESSAGE,
      text: `Open ${LINK_PLACEHOLDER}.`,
      link: { id: 'a', url: 'https://x.test/#reset/', secretId: old.current.id },
    };
    before.mailer.down = true;
    await expect(before.mail.send(message, new Date(before.clock.now().getTime() + HOUR))).rejects.toThrow();
    // The same outbox, read by a server configured with another secret only.
    const after = new MailService({
      outbox: before.outbox,
      mailer: { send: async (m) => void before.sent.push(m) },
      clock: before.clock,
      secrets: SECRETS,
      events: { discarded: (e, why) => before.events.discarded.push(`${e.to}: ${why}`) },
    });
    before.clock.advance(31_000);
    expect(await after.retryDue()).toBe(0);
    expect(before.sent).toEqual([]);
    expect(before.events.discarded).toEqual([`${MESSAGE.to}: unknown-secret`]);
    expect(before.outbox.entries.size).toBe(0);
    // With both secrets (the new first), it would have gone out.
    expect(
      linkSecrets(['new-secret-0000000000000000000000000', 'the-secret-before-it-was-rotated-000000']).all[1]!.id,
    ).toBe(old.current.id);
  });

  test('when a notice cannot be delivered, then the caller does not fail, and it is retried like any message', async () => {
    const { mail, sent, mailer, clock } = setup();
    mailer.down = true;
    await mail.notify(MESSAGE, new Date(clock.now().getTime() + HOUR));
    mailer.down = false;
    clock.advance(31_000);
    expect(await mail.retryDue()).toBe(1);
    expect(sent.map(text)).toEqual([MESSAGE]);
  });

  test('the waits double from 30 s and stop growing at an hour', () => {
    expect([1, 2, 3, 4, 8, 20].map(retryWaitMs)).toEqual([30_000, 60_000, 120_000, 240_000, HOUR, HOUR]);
  });
});
