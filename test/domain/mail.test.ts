// The outbox's rules (src/domain/mail.service.ts) on the in-memory fakes: a message is stored
// before it is tried, kept after a failure with waits that double (30 s, 60 s, 120 s, … up to an
// hour), deleted once delivered, and dropped (reported) once its link has expired.
import { describe, expect, test } from 'vitest';
import { MailUnavailableError } from '../../src/domain/errors.ts';
import { MailService, retryWaitMs } from '../../src/domain/mail.service.ts';
import type { MailMessage, OutboxEntry } from '../../src/domain/ports.ts';
import { FakeClock, MemoryMailOutbox } from '../support/fakes/index.ts';

const MESSAGE: MailMessage = { to: 'ada@example.org', subject: 'Hello', text: 'https://x.test/dashboard#reset/ssl_x' };
const HOUR = 3600_000;

function setup() {
  const clock = new FakeClock();
  const outbox = new MemoryMailOutbox();
  const sent: MailMessage[] = [];
  const mailer = { down: false };
  const events = { failed: [] as OutboxEntry[], retried: [] as OutboxEntry[], discarded: [] as OutboxEntry[] };
  const mail = new MailService({
    outbox,
    mailer: {
      send: async (m) => {
        if (mailer.down) throw new Error('451 busy');
        sent.push(m);
      },
    },
    clock,
    events: {
      failed: (e) => events.failed.push(e),
      retried: (e) => events.retried.push(e),
      discarded: (e) => events.discarded.push(e),
    },
  });
  return { clock, outbox, sent, mailer, events, mail };
}

describe('MailService', () => {
  test('when the mail server takes the message, then it is sent once and nothing stays in the outbox', async () => {
    const { mail, sent, outbox } = setup();
    await mail.send(MESSAGE, new Date(Date.now() + HOUR));
    expect(sent).toEqual([MESSAGE]);
    expect(outbox.entries.size).toBe(0);
  });

  test('when it refuses, then MailUnavailableError, the message is kept and retried after 30 s, 60 s, … until it goes out', async () => {
    const { mail, sent, outbox, mailer, clock, events } = setup();
    mailer.down = true;
    await expect(mail.send(MESSAGE, new Date(clock.now().getTime() + HOUR))).rejects.toBeInstanceOf(
      MailUnavailableError,
    );
    expect([...outbox.entries.values()].map((e) => e.attempts)).toEqual([1]);
    clock.advance(29_000);
    expect(await mail.retryDue()).toBe(0);
    expect(events.failed).toHaveLength(1);
    clock.advance(1_000);
    expect(await mail.retryDue()).toBe(0);
    expect(events.failed.map((e) => e.attempts)).toEqual([1, 2]);
    mailer.down = false;
    clock.advance(60_000);
    expect(await mail.retryDue()).toBe(1);
    expect(sent).toEqual([MESSAGE]);
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
    expect(events.discarded.map((e) => e.to)).toEqual([MESSAGE.to]);
    expect(outbox.entries.size).toBe(0);
  });

  test('the waits double from 30 s and stop growing at an hour', () => {
    expect([1, 2, 3, 4, 8, 20].map(retryWaitMs)).toEqual([30_000, 60_000, 120_000, 240_000, HOUR, HOUR]);
  });
});
