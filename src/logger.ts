// What the server writes to stdout: JSON lines (pino) for machines, or the same logs made
// readable (pino-pretty) and a start-up banner for a person at a terminal.
//
// pino-pretty is used as a formatting function on the main thread (prettyFactory) writing
// synchronously to stdout, not as a pino transport: a transport runs in a worker thread, whose
// last lines can be lost when the process exits right after logging "stopped".
import { pino, type Logger } from 'pino';
import { prettyFactory, type PrettyOptions } from 'pino-pretty';

export type LogFormat = 'json' | 'pretty';
/** LOG_FORMAT: `auto` picks by where the output goes (chooseLogFormat). */
export type LogFormatSetting = 'auto' | LogFormat;
type Environment = 'production' | 'development' | 'test';

/**
 * LOG_FORMAT=json or pretty wins; otherwise (`auto`) readable only for a person: stdout is a
 * terminal and this is not production. A pipe, a file, a container log or production gets JSON lines.
 */
export function chooseLogFormat(setting: LogFormatSetting, env: Environment, stdoutIsTTY: boolean): LogFormat {
  if (setting !== 'auto') return setting;
  return stdoutIsTTY && env !== 'production' ? 'pretty' : 'json';
}

export interface ServerOutput {
  readonly logger: Logger;
  readonly format: LogFormat;
  /** Text for a person (the banner): written in pretty mode only, so JSON output stays JSON lines. */
  print(text: string): void;
}

export function serverOutput(
  config: { readonly logLevel: string; readonly logFormat: LogFormatSetting; readonly env: Environment },
  stdoutIsTTY = process.stdout.isTTY === true,
): ServerOutput {
  const format = chooseLogFormat(config.logFormat, config.env, stdoutIsTTY);
  if (format === 'json') return { logger: pino({ level: config.logLevel }), format, print: () => undefined };
  const out = pino.destination({ dest: 1, sync: true });
  const pretty = prettyLines();
  return {
    logger: pino({ level: config.logLevel }, { write: (line: string) => void out.write(pretty(line)) }),
    format,
    print: (text) => void out.write(text),
  };
}

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

export interface BannerInfo {
  /** The address the API listens on. */
  readonly listening: string;
  /** PUBLIC_BASE_URL: where the links point. */
  readonly publicBaseUrl: string;
  /** The store, as logged (never a password). */
  readonly store: string;
  /** The metrics listener's URL, or how to reach /metrics on the API's port. */
  readonly metrics?: string | undefined;
  readonly demoUser?: { readonly email: string; readonly password: string } | undefined;
}

/** The lines a person needs after `npm start`: where everything is, and how to sign in. */
export function startupBanner(info: BannerInfo): string {
  const rows: Array<[string, string]> = [
    ['API', `${info.publicBaseUrl}/v1`],
    ['Docs', `${info.publicBaseUrl}/docs`],
    ['Dashboard', `${info.publicBaseUrl}/dashboard`],
    ['Contract', `${info.publicBaseUrl}/openapi.json`],
    ...(info.metrics ? [['Metrics', info.metrics] as [string, string]] : []),
    ...(info.demoUser ? [['Demo user', `${info.demoUser.email} / ${info.demoUser.password}`] as [string, string]] : []),
  ];
  return [
    '',
    `  School Search API — listening on ${info.listening} (${info.store})`,
    '',
    ...rows.map(([name, value]) => `  ${name.padEnd(11)}${value}`),
    '',
    '  Ctrl+C stops it.',
    '',
    '',
  ].join('\n');
}
