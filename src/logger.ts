// What the server writes to stdout: JSON lines (pino) for machines, or the same logs made
// readable (pino-pretty) and a start-up banner for a person at a terminal.
//
// The readable form is ./log-pretty.ts, loaded only when it is chosen: a server writing JSON lines
// (production, a pipe) has no use for pino-pretty and its dependencies.
import { pino, type Logger } from 'pino';

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

export async function serverOutput(
  config: { readonly logLevel: string; readonly logFormat: LogFormatSetting; readonly env: Environment },
  stdoutIsTTY = process.stdout.isTTY === true,
): Promise<ServerOutput> {
  const format = chooseLogFormat(config.logFormat, config.env, stdoutIsTTY);
  if (format === 'json') return { logger: pino({ level: config.logLevel }), format, print: () => undefined };
  const { prettyLines } = await import('./log-pretty.ts');
  const out = pino.destination({ dest: 1, sync: true });
  const pretty = prettyLines();
  return {
    logger: pino({ level: config.logLevel }, { write: (line: string) => void out.write(pretty(line)) }),
    format,
    print: (text) => void out.write(text),
  };
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
