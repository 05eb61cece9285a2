// A real SMTP server in the test process (the smtp-server package): the app's SMTP adapter
// (nodemailer) delivers to it over TCP, and tests read what arrived, follow its links, or make it
// refuse mail (a mail server that is down) to see the outbox retry.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface DeliveredMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** The Message-ID header, angle brackets included. */
  readonly messageId: string;
}

export interface TestSmtp {
  readonly url: string;
  readonly delivered: DeliveredMail[];
  /** While true, every message is refused with a 451 (a temporary failure). */
  refusing: boolean;
  /**
   * The next message to `to` that arrives (or has arrived and was not taken yet), within
   * `timeoutMs`; with `subject`, the next one whose subject matches it (the others stay).
   */
  next(to: string, options?: { timeoutMs?: number; subject?: RegExp }): Promise<DeliveredMail>;
  close(): Promise<void>;
}

/** `delayMs`: how long the server takes to accept each message (a real one takes tens of milliseconds). */
export async function startSmtp(options: { delayMs?: number } = {}): Promise<TestSmtp> {
  const delivered: DeliveredMail[] = [];
  const taken = new Set<DeliveredMail>();
  const waiting: Array<() => void> = [];
  const state = { refusing: false };
  const server = new SMTPServer({
    // Plain SMTP on loopback: no STARTTLS (its self-signed certificate), no login.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (state.refusing) {
          callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const to = session.envelope.rcptTo.map((r) => r.address).join(',');
        delivered.push({ to, ...parse(raw) });
        for (const wake of waiting.splice(0)) wake();
        if (options.delayMs) setTimeout(() => callback(), options.delayMs);
        else callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    delivered,
    get refusing() {
      return state.refusing;
    },
    set refusing(value: boolean) {
      state.refusing = value;
    },
    async next(to, { timeoutMs = 5000, subject } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = delivered.find((m) => m.to === to && !taken.has(m) && (!subject || subject.test(m.subject)));
        if (found) {
          taken.add(found);
          return found;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail to ${to} within ${timeoutMs} ms (delivered: ${delivered.length})`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiting.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Subject and text of a single-part plain-text message (what the app sends), transfer encoding undone. */
function parse(raw: string): { subject: string; text: string; messageId: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? Buffer.from(
          body
            .replace(/=\r\n/g, '')
            .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8')
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return { subject: header('Subject'), text: text.replace(/\r\n/g, '\n'), messageId: header('Message-ID') };
}

/** The first link in a message that points into the dashboard with this fragment (`confirm`, `reset`, `invitation`). */
export function linkIn(mail: DeliveredMail, kind: 'confirm' | 'reset' | 'invitation'): { url: string; token: string } {
  const match = new RegExp(`(https?://\\S+#${kind}/(ssl_[A-Za-z0-9_-]{43}))`).exec(mail.text);
  if (!match) throw new Error(`no ${kind} link in: ${mail.text}`);
  return { url: match[1]!, token: match[2]! };
}
