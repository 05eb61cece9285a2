// The logs made readable for a person at a terminal (`npm start`): src/logger.ts loads this file
// only when that form is chosen.
//
// pino-pretty is used as a formatting function on the main thread (prettyFactory) writing
// synchronously to stdout, not as a pino transport: a transport runs in a worker thread, whose
// last lines can be lost when the process exits right after logging "stopped".
import { prettyFactory, type PrettyOptions } from 'pino-pretty';

/**
 * Lines whose fields read better as one sentence: the message says them, the fields are not
 * repeated below it. (A request line; the "listening" line, whose links the banner lists.)
 */
interface OneLiner {
  readonly fields: readonly string[];
  readonly message: (log: Record<string, unknown>) => string;
}
const ONE_LINERS = new Map<string, OneLiner>([
  [
    'request',
    {
      fields: ['requestId', 'method', 'path', 'status', 'ms'],
      message: (log) =>
        [
          log['method'],
          log['path'],
          log['status'],
          typeof log['ms'] === 'number' ? `${log['ms'].toFixed(1)} ms` : undefined,
        ]
          .filter((part) => part !== undefined)
          .join(' '),
    },
  ],
  [
    'listening',
    {
      fields: ['url', 'docs', 'dashboard', 'openapi', 'metrics', 'store', 'database'],
      message: (log) => `listening on ${String(log['url'])}`,
    },
  ],
]);

/** pino-pretty's formatter: `[12:00:01.234] INFO: GET /v1/fetchSchoolSearch 200 3.1 ms`; other lines with their fields below. */
export function prettyLines(options: Pick<PrettyOptions, 'colorize'> = {}): (line: string) => string {
  const oneLiner = (log: object) => ONE_LINERS.get(String((log as { msg?: unknown }).msg));
  const fields = new Set([...ONE_LINERS.values()].flatMap((l) => l.fields));
  // Returning undefined drops the field from the output (pino-pretty skips it).
  const shownUnlessSaid = (value: unknown, key: string, log: object) =>
    (oneLiner(log)?.fields.includes(key) ? undefined : JSON.stringify(value)) as string;
  return prettyFactory({
    ...options,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    messageFormat: (log, messageKey) => oneLiner(log)?.message(log) ?? String(log[messageKey] ?? ''),
    customPrettifiers: Object.fromEntries([...fields].map((field) => [field, shownUnlessSaid])),
  });
}
