// All configuration, from the environment, checked at start-up: a bad value stops the process
// with a message naming the variable. The README's table of variables mirrors this schema.
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { CorsOrigins } from './http/middleware/cors.ts';
import type { RateLimits } from './http/middleware/rate-limit.ts';
import type { PublishableLimits } from './domain/accounts/keys.service.ts';
import type { StoreConfig } from './stores/store.config.ts';
import { DEFAULT_SESSION_MAX_SECONDS } from './domain/accounts/credentials.ts';
import { SIGNUP_MODES, type SignUpMode } from './domain/accounts/accounts.ports.ts';

/** Relative paths are resolved against the project, not the working directory: the API and the
 * command line then find the same store from wherever they are started. */
const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const projectPath = (path: string) => (isAbsolute(path) ? path : resolve(PROJECT_ROOT, path));

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const schema = z.object({
  NODE_ENV: z.enum(['production', 'development', 'test']).default('development'),
  PORT: int(0, 65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .refine((v) => !/[?#]/.test(v), 'must have no query or fragment')
    .optional(),
  DATABASE_PATH: z.string().min(1).default('data/school-search.db'),
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\/[^\s]+$/, 'a mongodb:// or mongodb+srv:// connection string')
    .optional(),
  MONGODB_SEARCH: z.enum(['memory', 'text', 'atlas']).default('memory'),
  MONGODB_ALLOW_MISSING_COLLECTIONS: bool.optional(),
  MONGODB_SEARCH_INDEX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - (1 to 64)')
    .default('schools_search'),
  SEARCH_REFRESH_MS: int(100, 600_000).default(250),
  // On MongoDB, where each instance keeps its index file (the embedded store's is beside it).
  SEARCH_INDEX_DIR: z.string().min(1).optional(),
  SEED_FILE: z.string().min(1).default('data/seed/schools.ndjson.gz'),
  SEED_WHEN_EMPTY: bool.optional(),
  DEMO_USER: bool.optional(),
  TOKEN_TTL_SECONDS: int(60, 30 * 24 * 3600).default(3600),
  SESSION_MAX_LIFETIME_SECONDS: int(60, 30 * 24 * 3600).optional(),
  LINK_SECRET: z
    .string()
    .refine(
      (v) => v.split(',').every((s) => /^[\x21-\x7e]{32,256}$/.test(s.trim())),
      'one or more secrets, comma-separated, each 32 to 256 visible ASCII characters (e.g. the output of `openssl rand -hex 32`); the first derives new links',
    )
    .optional(),
  // 0: every request record is kept (the default). N: today's and the N days before it (src/domain/metering/retention.ts).
  REQUEST_RETENTION_DAYS: int(0, 100 * 366).default(0),
  VALIDATE_RESPONSES: bool.optional(),
  ARGON2_MEMORY_KIB: int(19456, 4 * 1024 * 1024).default(19456),
  ARGON2_TIME_COST: int(2, 100).default(2),
  ARGON2_PARALLELISM: int(1, 64).default(1),
  ARGON2_CONCURRENCY: int(1, 256).optional(),
  SHUTDOWN_TIMEOUT_MS: int(0, 600_000).default(10_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  METRICS_PORT: int(0, 65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  METRICS_TOKEN: z
    .string()
    .regex(
      /^[\x21-\x7e]{32,256}$/,
      '32 to 256 visible ASCII characters, no spaces (e.g. the output of `openssl rand -hex 32`)',
    )
    .optional(),
  RATE_LIMIT_WINDOW_SECONDS: int(1, 3600).default(60),
  RATE_LIMIT_SEARCH: int(0, 1_000_000).default(300),
  // The most one publishable key may spend in 24 hours (its owner picks a budget up to this).
  PUBLISHABLE_SEARCHES_PER_DAY_MAX: int(1, 100_000_000).default(100_000),
  RATE_LIMIT_LOGIN_PER_CLIENT: int(0, 1_000_000).default(30),
  RATE_LIMIT_LOGIN_PER_EMAIL: int(0, 1_000_000).default(10),
  RATE_LIMIT_LOGIN_PER_EMAIL_ALL_CLIENTS: int(0, 1_000_000).default(100),
  RATE_LIMIT_ACCOUNT: int(0, 1_000_000).default(600),
  RATE_LIMIT_MAIL_WINDOW_SECONDS: int(60, 7 * 24 * 3600).default(3600),
  RATE_LIMIT_MAIL_PER_EMAIL: int(0, 1_000_000).default(5),
  RATE_LIMIT_MAIL_PER_CLIENT: int(0, 1_000_000).default(20),
  RATE_LIMIT_LINK_PER_CLIENT: int(0, 1_000_000).default(30),
  RATE_LIMIT_LINK_PER_LINK: int(0, 1_000_000).default(10),
  SIGNUP: z.enum(SIGNUP_MODES as [SignUpMode, ...SignUpMode[]]).optional(),
  SMTP_URL: z
    .url({ protocol: /^smtps?$/ })
    .refine((v) => !/[#]/.test(v), 'must have no fragment')
    .optional(),
  MAIL_FROM: z
    .string()
    .min(3)
    .max(320)
    .regex(/^[^\r\n]+@[^\r\n]+$/, 'an address such as School Search <no-reply@example.org>')
    .optional(),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(false|true|\d{1,2}|[0-9a-zA-Z.:/, ]+)$/,
      'false, true, a number of proxy hops, or addresses/subnets (e.g. loopback, 10.0.0.0/8)',
    )
    .default('false'),
  CORS_ORIGINS: z
    .string()
    .refine(
      (v) => v === '*' || v === 'none' || v.split(',').every((o) => /^https?:\/\/[^/?#\s]+$/.test(o.trim())),
      '*, none, or a comma-separated list of origins such as https://app.example.org',
    )
    .default('*'),
});

export interface Config {
  readonly env: 'production' | 'development' | 'test';
  readonly port: number;
  readonly host: string;
  readonly publicBaseUrl: string;
  readonly databasePath: string;
  /** Which store the API, the command line and the tests use: MONGODB_URI picks MongoDB. */
  readonly store: StoreConfig;
  /** How often (ms) each API process looks for a catalog changed by an import, to index it. */
  readonly searchRefreshMs: number;
  /**
   * On MongoDB with the in-process index, the directory where the instance saves its index, so
   * that a restart reads it instead of building (docs/search.md, "The persisted index"); undefined:
   * not saved. The embedded store's index is saved beside its file (`<DATABASE_PATH>.index`).
   */
  readonly searchIndexDir: string | undefined;
  readonly seedFile: string;
  readonly seedWhenEmpty: boolean;
  readonly demoUser: boolean;
  readonly tokenTtlSeconds: number;
  /** The absolute session lifetime: no session token outlives it after the password was given (rotation included). */
  readonly sessionMaxSeconds: number;
  /**
   * LINK_SECRET's values (the first derives new links; the others can still render mail queued
   * before a rotation); undefined outside production without it: a secret of each process.
   */
  readonly linkSecrets: readonly string[] | undefined;
  /** 0: keep every request record. */
  readonly requestRetentionDays: number;
  readonly validateResponses: boolean;
  readonly argon2: { memoryCost: number; timeCost: number; parallelism: number };
  /** Password hashes computed at once (default: all CPUs but one); more wait their turn. */
  readonly argon2Concurrency: number | undefined;
  readonly shutdownTimeoutMs: number;
  readonly logLevel: string;
  /** `auto`: human-readable on a terminal outside production, JSON lines otherwise (src/logger.ts). */
  readonly logFormat: 'auto' | 'json' | 'pretty';
  /**
   * Prometheus metrics, collected only when one of the two is set: `port` (with `host`) a
   * listener of their own; `token`, GET /metrics on the API's port for that bearer token.
   */
  readonly metrics: { readonly port: number | undefined; readonly host: string; readonly token: string | undefined };
  readonly rateLimits: RateLimits;
  /** What one publishable key may be given to spend: the search quota a minute, and PUBLISHABLE_SEARCHES_PER_DAY_MAX. */
  readonly publishableLimits: PublishableLimits;
  /** E-mails one link is sent in at most (RATE_LIMIT_MAIL_PER_EMAIL; 0: no bound): src/domain/accounts/link-sender.ts. */
  readonly mailsPerLink: number;
  /** Express's `trust proxy`: which X-Forwarded-For hops to believe for the client address. */
  readonly trustProxy: boolean | number | string;
  readonly corsOrigins: CorsOrigins;
  /** Who may make an account: `off` (the operator's command line), `invite` (also invitations), `open` (also anyone, confirmed by e-mail). */
  readonly signUp: SignUpMode;
  /**
   * Where e-mail goes: `smtp` to SMTP_URL; `log` (development without SMTP_URL) into the log;
   * `none` (production without SMTP_URL): no sign-up, no reset.
   */
  readonly mail:
    | { readonly kind: 'smtp'; readonly url: string; readonly from: string }
    | { readonly kind: 'log' }
    | { readonly kind: 'none' };
}

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'demo-password-123';

export class ConfigError extends Error {
  override readonly name: string = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const production = c.NODE_ENV === 'production';
  const signUp = c.SIGNUP ?? (production ? 'off' : 'open');
  if (production && signUp !== 'off' && !c.SMTP_URL) {
    throw new ConfigError(
      `Invalid configuration:\n  SIGNUP: ${signUp} needs mail: set SMTP_URL (e.g. smtp://user:password@mail.example.org:587)`,
    );
  }
  if (production && c.SMTP_URL && !c.PUBLIC_BASE_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  PUBLIC_BASE_URL: needed with SMTP_URL in production: the links in e-mails point at it (e.g. https://api.example.org)',
    );
  }
  if (production && c.SMTP_URL && !c.LINK_SECRET) {
    throw new ConfigError(
      'Invalid configuration:\n  LINK_SECRET: needed with SMTP_URL in production, the same on every instance: the links in e-mails are derived with it (e.g. the output of `openssl rand -hex 32`)',
    );
  }
  const sessionMaxSeconds =
    c.SESSION_MAX_LIFETIME_SECONDS ?? Math.max(DEFAULT_SESSION_MAX_SECONDS, c.TOKEN_TTL_SECONDS);
  if (sessionMaxSeconds < c.TOKEN_TTL_SECONDS) {
    throw new ConfigError(
      `Invalid configuration:\n  SESSION_MAX_LIFETIME_SECONDS: ${sessionMaxSeconds} is shorter than TOKEN_TTL_SECONDS (${c.TOKEN_TTL_SECONDS}): a session cannot end before its first token`,
    );
  }
  const publicBaseUrl = (c.PUBLIC_BASE_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, '');
  return {
    env: c.NODE_ENV,
    port: c.PORT,
    host: c.HOST,
    publicBaseUrl,
    databasePath: projectPath(c.DATABASE_PATH),
    store: c.MONGODB_URI
      ? {
          kind: 'mongodb',
          uri: c.MONGODB_URI,
          allowMissingCollections: c.MONGODB_ALLOW_MISSING_COLLECTIONS ?? false,
          search:
            c.MONGODB_SEARCH === 'atlas'
              ? { kind: 'atlas', index: c.MONGODB_SEARCH_INDEX }
              : { kind: c.MONGODB_SEARCH },
        }
      : { kind: 'sqlite', path: projectPath(c.DATABASE_PATH) },
    searchRefreshMs: c.SEARCH_REFRESH_MS,
    searchIndexDir: c.SEARCH_INDEX_DIR === undefined ? undefined : projectPath(c.SEARCH_INDEX_DIR),
    seedFile: projectPath(c.SEED_FILE),
    seedWhenEmpty: c.SEED_WHEN_EMPTY ?? true,
    demoUser: c.DEMO_USER ?? !production,
    tokenTtlSeconds: c.TOKEN_TTL_SECONDS,
    sessionMaxSeconds,
    linkSecrets: c.LINK_SECRET?.split(',').map((v) => v.trim()),
    requestRetentionDays: c.REQUEST_RETENTION_DAYS,
    validateResponses: c.VALIDATE_RESPONSES ?? !production,
    argon2: { memoryCost: c.ARGON2_MEMORY_KIB, timeCost: c.ARGON2_TIME_COST, parallelism: c.ARGON2_PARALLELISM },
    argon2Concurrency: c.ARGON2_CONCURRENCY,
    shutdownTimeoutMs: c.SHUTDOWN_TIMEOUT_MS,
    logLevel: c.LOG_LEVEL,
    logFormat: c.LOG_FORMAT,
    metrics: { port: c.METRICS_PORT, host: c.METRICS_HOST, token: c.METRICS_TOKEN },
    rateLimits: {
      windowSeconds: c.RATE_LIMIT_WINDOW_SECONDS,
      searchPerUser: c.RATE_LIMIT_SEARCH,
      loginPerClient: c.RATE_LIMIT_LOGIN_PER_CLIENT,
      loginFailuresPerEmailAndClient: c.RATE_LIMIT_LOGIN_PER_EMAIL,
      loginFailuresPerEmail: c.RATE_LIMIT_LOGIN_PER_EMAIL_ALL_CLIENTS,
      accountPerUser: c.RATE_LIMIT_ACCOUNT,
      mailWindowSeconds: c.RATE_LIMIT_MAIL_WINDOW_SECONDS,
      mailPerClient: c.RATE_LIMIT_MAIL_PER_CLIENT,
      linkPerClient: c.RATE_LIMIT_LINK_PER_CLIENT,
      linkPerLink: c.RATE_LIMIT_LINK_PER_LINK,
    },
    publishableLimits: {
      // The account's own search quota, a minute (off: the contract's ceiling).
      perMinute:
        c.RATE_LIMIT_SEARCH === 0
          ? 100_000
          : Math.max(1, Math.min(100_000, Math.floor((c.RATE_LIMIT_SEARCH * 60) / c.RATE_LIMIT_WINDOW_SECONDS))),
      perDay: c.PUBLISHABLE_SEARCHES_PER_DAY_MAX,
    },
    mailsPerLink: c.RATE_LIMIT_MAIL_PER_EMAIL,
    signUp,
    mail: c.SMTP_URL
      ? {
          kind: 'smtp',
          url: c.SMTP_URL,
          from: c.MAIL_FROM ?? `School Search API <no-reply@${new URL(publicBaseUrl).hostname}>`,
        }
      : production
        ? { kind: 'none' }
        : { kind: 'log' },
    trustProxy:
      c.TRUST_PROXY === 'false'
        ? false
        : c.TRUST_PROXY === 'true'
          ? true
          : /^\d+$/.test(c.TRUST_PROXY)
            ? Number(c.TRUST_PROXY)
            : c.TRUST_PROXY,
    corsOrigins:
      c.CORS_ORIGINS === '*' || c.CORS_ORIGINS === 'none'
        ? c.CORS_ORIGINS
        : c.CORS_ORIGINS.split(',').map((o) => o.trim()),
  };
}
