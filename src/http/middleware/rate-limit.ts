// Rate limiting (express-rate-limit): per user on search (with a publishable key: per key a
// minute and a day, and per visitor of the key, as its owner set them); on login per client, and failed
// attempts per e-mail from one client, and per e-mail from all clients together. The counters
// live in the store (shared by every API process on it) unless the store is one process's alone.
// It runs after the validator, so it knows the operation, the authenticated token and a valid
// body, and before the handler, so a refused search is neither run nor metered.
import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit, type ClientRateLimitInfo, type Store } from 'express-rate-limit';
import type { Logger } from 'pino';
import { normalizeEmail } from '../../domain/accounts/credentials.ts';
import { deviceProofOf } from '../device-cookie.ts';
import type { QuotaCounter, QuotaWindow } from '../../domain/metering/metering.ports.ts';
import { RateLimitedError } from '../problems/rate-limited.error.ts';
import { operationIdOf, principalOf } from '../request.ts';

/** Requests allowed per window; 0 turns that limiter off. */
export interface RateLimits {
  readonly windowSeconds: number;
  /** Per user, not per token: every token of a user (up to 100, and rotation makes new ones) shares it. */
  readonly searchPerUser: number;
  readonly loginPerClient: number;
  /**
   * Failed logins only (a user's own successful logins never count), per e-mail and client: a
   * stranger guessing from one address throttles only that address's attempts at the account.
   */
  readonly loginFailuresPerEmailAndClient: number;
  /** Failed logins per e-mail from all clients together: the ceiling on guessing from many addresses. */
  readonly loginFailuresPerEmail: number;
  /** Per user, every other operation that needs a token (account, history, tokens, keys) together. */
  readonly accountPerUser: number;
  /** The window of the mail quota below: mail is counted per hour, not per minute. */
  readonly mailWindowSeconds: number;
  /**
   * Sign-ups and reset requests per client, together: the bound on mail one client can make us
   * send. (Per address there is no quota to run out: a link is mailed at most a few times, and a
   * request beyond that is answered as usual without a mail: src/domain/accounts/link-sender.ts.)
   */
  readonly mailPerClient: number;
  /** Uses of links (confirm sign-up, set a new password, accept an invitation) per client, together. */
  readonly linkPerClient: number;
  /** Uses of one link: each attempt may cost a password check (a confirmation checks the password). */
  readonly linkPerLink: number;
}

export const RATE_LIMITS_OFF: RateLimits = {
  windowSeconds: 60,
  searchPerUser: 0,
  loginPerClient: 0,
  loginFailuresPerEmailAndClient: 0,
  loginFailuresPerEmail: 0,
  accountPerUser: 0,
  mailWindowSeconds: 3600,
  mailPerClient: 0,
  linkPerClient: 0,
  linkPerLink: 0,
};

/** The sign-up, reset and invitation operations: no token, each with its quotas per client and per e-mail (or link). */
export const MAIL_OPERATIONS = ['signUp', 'requestPasswordReset'] as const;
export const LINK_OPERATIONS = ['confirmSignUp', 'resetPassword', 'acceptInvitation'] as const;

/** The operations the per-user account quota covers: every one with a token but search and password change, which have their own. */
export const ACCOUNT_OPERATIONS = [
  'fetchMyData',
  'fetchMyRequests',
  'fetchMyUsage',
  'listMyTokens',
  'revokeMyToken',
  'revokeCurrentToken',
  'rotateToken',
  'createApiKey',
  'rotateApiKey',
] as const;

interface Keyed {
  readonly policy: string;
  /** A number, or the request's own (a publishable key's budgets); a limit of 0 builds no limiter. */
  readonly limit: number | ((req: Request) => number);
  /** Default: the common window. */
  readonly windowSeconds?: number;
  readonly key: (req: Request) => string;
  readonly failuresOnly?: boolean;
  /** Requests this limiter neither counts nor refuses. */
  readonly skip?: (req: Request) => boolean | Promise<boolean>;
  /**
   * A quota of one e-mail address from every client: it sends no RateLimit headers, whose
   * count would tell a stranger how often others failed at the address.
   */
  readonly quiet?: boolean;
}

/** Whether a device proof shows a recent successful login to the account of `email` (AuthService). */
export type DeviceCheck = (email: string, proof: string) => Promise<boolean>;

/**
 * One middleware that applies the limiters of the operation the validator matched. With
 * `counter` (the store's), every API process on the store shares each quota; without, this
 * process counts alone (express-rate-limit's memory store).
 */
export function rateLimiting(
  limits: RateLimits,
  logger: Logger,
  counter?: QuotaCounter,
  recognisesDevice?: DeviceCheck,
): RequestHandler {
  const build = ({
    policy,
    limit,
    key,
    failuresOnly,
    windowSeconds,
    skip,
    quiet,
  }: Keyed): RequestHandler | undefined =>
    typeof limit === 'function' || limit > 0
      ? rateLimit({
          windowMs: (windowSeconds ?? limits.windowSeconds) * 1000,
          limit,
          identifier: policy,
          // A store per limiter (express-rate-limit checks that none is shared); the policy keeps their keys apart.
          ...(counter ? { store: sharedStore(counter, policy) } : {}),
          standardHeaders: quiet ? false : 'draft-8',
          legacyHeaders: false,
          keyGenerator: key,
          skipSuccessfulRequests: failuresOnly ?? false,
          ...(skip ? { skip } : {}),
          // Its configuration checks log through our logger, not the console.
          logger: {
            error: (...args) => logger.error({ args }, 'rate limiter'),
            warn: (...args) => logger.warn({ args }, 'rate limiter'),
          },
          handler: (req, _res, next) => {
            const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
            const seconds = reset
              ? Math.max(0, Math.ceil((reset.getTime() - Date.now()) / 1000))
              : (windowSeconds ?? limits.windowSeconds);
            next(new RateLimitedError(policy, seconds));
          },
        })
      : undefined;

  // One limiter shared by all of them: one counter per user whichever of these it calls.
  const account = build({
    policy: 'account-per-user',
    limit: limits.accountPerUser,
    key: (req) => `a:${principalOf(req).userId}`,
  });
  // A school's record is read after a search found it: one counter per user for both. A
  // publishable key spends its own budgets instead, never its owner's programs' quota.
  const search = build({
    policy: 'search-per-user',
    limit: limits.searchPerUser,
    key: (req) => `u:${principalOf(req).userId}`,
    skip: (req) => principalOf(req).publishable !== undefined,
  });
  const page = (req: Request) => principalOf(req).publishable;
  const onPage = [
    build({
      policy: 'publishable-key-per-minute',
      limit: (req) => page(req)!.perMinute,
      windowSeconds: 60,
      key: (req) => `pm:${principalOf(req).tokenId}`,
      skip: (req) => page(req) === undefined,
    }),
    build({
      policy: 'publishable-key-per-day',
      limit: (req) => page(req)!.perDay,
      windowSeconds: 86_400,
      key: (req) => `pd:${principalOf(req).tokenId}`,
      skip: (req) => page(req) === undefined,
    }),
    // Each visitor's share of the key: one address (or /56 network) cannot spend the site's budget.
    build({
      policy: 'publishable-key-per-visitor',
      limit: (req) => page(req)!.perVisitorPerMinute,
      windowSeconds: 60,
      key: (req) => `pv:${principalOf(req).tokenId}:${clientKey(req)}`,
      skip: (req) => page(req) === undefined,
    }),
  ];
  // The visitor's share is checked first: a refused visitor spends nothing of the key's budgets.
  const searchChain = [search, onPage[2], onPage[0], onPage[1]].filter((h) => h !== undefined);
  // One counter per client for both mail operations: each sends one e-mail. None per address: a
  // stranger's requests would spend it and lock the address's owner out of their own mail.
  const mail = [
    build({
      policy: 'mail-per-client',
      limit: limits.mailPerClient,
      windowSeconds: limits.mailWindowSeconds,
      key: (req) => `mc:${clientKey(req)}`,
    }),
  ].filter((h) => h !== undefined);
  const link = [
    build({ policy: 'link-per-client', limit: limits.linkPerClient, key: (req) => `lc:${clientKey(req)}` }),
    // A link is for one address: its own quota is the per-e-mail quota of these operations.
    build({ policy: 'link-per-link', limit: limits.linkPerLink, key: (req) => `ll:${linkKey(req)}` }),
  ].filter((h) => h !== undefined);
  const options = build({
    policy: 'signup-options-per-client',
    limit: limits.accountPerUser,
    key: (req) => `so:${clientKey(req)}`,
  });
  // Each attempt costs a password check, as a login does: the login's quota, per user, for every
  // operation that checks the current password (a stolen session must not guess it faster
  // through key creation than through a password change). The name is the one it always had.
  const passwordCheck = build({
    policy: 'password-change-per-user',
    limit: limits.loginPerClient,
    key: (req) => `p:${principalOf(req).userId}`,
  });
  const checksPassword = new Set(['createApiKey', 'rotateApiKey']);
  const byOperation: Record<string, RequestHandler[]> = {
    ...Object.fromEntries(MAIL_OPERATIONS.map((operationId) => [operationId, mail])),
    ...Object.fromEntries(LINK_OPERATIONS.map((operationId) => [operationId, link])),
    getSignUpOptions: options ? [options] : [],
    ...Object.fromEntries(
      ACCOUNT_OPERATIONS.map((operationId) => [
        operationId,
        [account, checksPassword.has(operationId) ? passwordCheck : undefined].filter((h) => h !== undefined),
      ]),
    ),
    fetchSchoolSearch: searchChain,
    getSchool: searchChain,
    createToken: [
      build({ policy: 'login-per-client', limit: limits.loginPerClient, key: (req) => `c:${clientKey(req)}` }),
      build({
        policy: 'login-failures-per-email-and-client',
        limit: limits.loginFailuresPerEmailAndClient,
        key: (req) => `ec:${emailKey(req)}:${clientKey(req)}`,
        failuresOnly: true,
      }),
      build({
        policy: 'login-failures-per-email',
        limit: limits.loginFailuresPerEmail,
        key: (req) => `e:${emailKey(req)}`,
        failuresOnly: true,
        quiet: true,
        // A device that logged in to this account recently (its device cookie proves it) is not
        // held back by failures from elsewhere: many addresses failing at an account lock out
        // new devices only, never the owner's own. Its own failures still meet the per-client limits.
        ...(recognisesDevice ? { skip: (req: Request) => knownDevice(req, recognisesDevice) } : {}),
      }),
    ].filter((h) => h !== undefined),
    changePassword: passwordCheck ? [passwordCheck] : [],
  };

  return (req: Request, res: Response, next: NextFunction) => {
    const operationId = operationIdOf(req);
    const chain = operationId ? byOperation[operationId] : undefined;
    if (!chain || chain.length === 0) return next();
    run(chain, 0, req, res, next);
  };
}

/**
 * express-rate-limit's store interface over the store's quota counters. A counter that fails
 * fails the request (a 503: express-rate-limit passes the error on), so no request goes uncounted.
 */
function sharedStore(counter: QuotaCounter, policy: string): Store {
  let windowMs = 60_000;
  const key = (k: string) => `${policy}:${k}`;
  const info = (w: QuotaWindow): ClientRateLimitInfo => ({ totalHits: w.hits, resetTime: w.resetAt });
  return {
    prefix: `${policy}:`,
    localKeys: false,
    init: (options) => {
      windowMs = options.windowMs;
    },
    increment: async (k) => info(await counter.hit(key(k), windowMs)),
    decrement: (k) => counter.unhit(key(k)),
    resetKey: (k) => counter.reset(key(k)),
    get: async (k) => {
      const w = await counter.get(key(k));
      return w ? info(w) : undefined;
    },
  };
}

function run(chain: RequestHandler[], index: number, req: Request, res: Response, next: NextFunction): void {
  if (index === chain.length) {
    next();
    return;
  }
  void chain[index]!(req, res, (error?: unknown) => (error ? next(error) : run(chain, index + 1, req, res, next)));
}

async function knownDevice(req: Request, recognises: DeviceCheck): Promise<boolean> {
  const proof = deviceProofOf(req);
  const email = req.body?.email;
  return proof !== undefined && typeof email === 'string' && (await recognises(email, proof));
}

/** A digest of the normalised e-mail: the same account however it is typed, and no address kept in memory. */
function emailKey(req: Request): string {
  const email = typeof req.body?.email === 'string' ? normalizeEmail(req.body.email) : '';
  return createHash('sha256').update(email).digest('base64url');
}

/** A digest of the link's token: its quota, without the token kept in memory. */
function linkKey(req: Request): string {
  const token = typeof req.body?.token === 'string' ? req.body.token : '';
  return createHash('sha256').update(token).digest('base64url');
}

/** The client address (behind trusted proxies, the forwarded one); IPv6 by /56 network. */
function clientKey(req: Request): string {
  return ipKeyGenerator(req.ip ?? '');
}
