// createApp builds the HTTP application from its dependencies without listening, so tests start
// real apps on port 0 and src/main.ts is the only place that binds a port.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Logger } from 'pino';
import { authentication, principalOf } from './http/auth.ts';
import type { Contract } from './http/contract.ts';
import { dashboardAssets, type DashboardAssets } from './http/dashboard.assets.ts';
import { dashboardRoutes } from './http/dashboard.routes.ts';
import { docsRoutes } from './http/docs.routes.ts';
import { errorMiddleware } from './http/error.middleware.ts';
import { createHandlers, type HandlerDeps, type Handlers } from './http/handlers.ts';
import { corsPolicy, type CorsOrigins } from './http/cors.ts';
import { accessLog } from './http/logging.ts';
import { metricsRoute } from './http/metrics.routes.ts';
import { rateLimiting, type RateLimits } from './http/rate-limit.ts';
import { requestId } from './http/request-id.ts';
import { securityHeaders } from './http/security-headers.ts';
import { MAX_BODY_BYTES } from './http/server.ts';
import { strictJsonBody, utf8Query } from './http/strict-input.ts';
import { strictIntegers } from './http/strict-integers.ts';
import { NotFoundError } from './domain/errors.ts';
import type { Metrics, Scrape } from './metrics/metrics.port.ts';

export interface AppOptions extends HandlerDeps {
  readonly contract: Contract;
  /** Validate every response against the contract (development and test; off in production). */
  readonly validateResponses: boolean;
  readonly logger: Logger;
  readonly rateLimits: RateLimits;
  readonly corsOrigins: CorsOrigins;
  /** The dashboard's files (default: bundled from src/dashboard on the first request). */
  readonly dashboard?: () => Promise<DashboardAssets>;
  /** Express's `trust proxy`; the client address keys the login rate limit. */
  readonly trustProxy?: boolean | number | string;
  /** Where requests, store failures and rate-limit refusals are reported (default: nowhere). */
  readonly metrics?: Metrics;
  /** GET /metrics on this app for a scraper presenting this bearer token (default: a 404 like any unknown path). */
  readonly metricsEndpoint?: { readonly token: string; readonly scrape: Scrape };
}

interface OpenApiRequest extends Request {
  openapi?: { schema?: { operationId?: string }; pathParams?: Record<string, string> };
}

export function createApp(options: AppOptions): express.Express {
  const { contract, logger } = options;
  const handlers = createHandlers(options);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', options.trustProxy ?? false);
  app.use(requestId);
  app.use(accessLog(logger, options.metrics));
  app.use(securityHeaders());
  app.use(corsPolicy(options.corsOrigins));
  app.use(headAsGet);
  app.use(docsRoutes(contract));
  app.use(dashboardRoutes(options.dashboard ?? dashboardAssets));
  if (options.metricsEndpoint) app.use(metricsRoute(options.metricsEndpoint.token, options.metricsEndpoint.scrape));
  app.use(refuseDeclaredLargeBodies);
  app.use(utf8Query);
  app.use(express.json({ limit: MAX_BODY_BYTES, type: ['application/json', 'application/*+json'], strict: true, verify: strictJsonBody }));
  app.use(
    validatorWith(
      authentication(options.auth, contract),
      OpenApiValidator.middleware({
        // The validator annotates the document it is given: hand it its own copy.
        apiSpec: structuredClone(contract) as never,
        // Query and path parameters are always coerced from strings; bodies never are (a number
        // is not a password). allErrors: a 400 lists everything that is wrong, not the first thing.
        validateRequests: { allowUnknownQueryParameters: false, allErrors: true },
        validateResponses: options.validateResponses ? { removeAdditional: false } : false,
        // Authentication takes the slot of the validator's security check (src/http/auth.ts says why).
        validateSecurity: false,
        validateFormats: true,
        ignoreUndocumented: false,
      }),
    ),
  );
  app.use(strictIntegers(contract));
  app.use(rateLimiting(options.rateLimits, logger, options.store.quotas));
  app.use(dispatch(handlers));
  app.use(errorMiddleware(logger, options.metrics));
  return app;
}

/**
 * The validator's middlewares with `authenticate` in the place of its own security check (a
 * pass-through when validateSecurity is off): after the route is matched, before the request is
 * validated. The validator names its steps; a version that renames this one stops start-up.
 */
function validatorWith(authenticate: RequestHandler, steps: RequestHandler[]): RequestHandler[] {
  const slot = steps.findIndex((step) => step.name === 'securityMiddleware');
  if (slot < 0) throw new Error('express-openapi-validator has no securityMiddleware step: see src/http/auth.ts');
  return steps.with(slot, authenticate);
}

/** Calls the handler of the operation the validator matched. */
function dispatch(handlers: Handlers) {
  return async (req: OpenApiRequest, res: Response, next: NextFunction) => {
    const operationId = req.openapi?.schema?.operationId as keyof Handlers | undefined;
    const handler = operationId ? (handlers[operationId] as Handlers[keyof Handlers] | undefined) : undefined;
    if (!handler) return next(new NotFoundError(`There is no ${req.method} ${req.path}.`));
    try {
      const input = { query: req.query, path: req.openapi?.pathParams ?? {}, body: req.body } as never;
      const reply = await handler(input, { principal: () => principalOf(req) });
      for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
      res.status(reply.status as number);
      if (reply.status === 204) res.end();
      else if (reply.contentType) res.type(reply.contentType).send(reply.body);
      else res.json(reply.body);
    } catch (error) {
      next(error);
    }
  };
}

/**
 * HEAD is GET without a body (RFC 9110), but the validator only knows the contract's GETs.
 * The response object was created for a HEAD request, so Node still sends no body.
 */
function headAsGet(req: Request, _res: Response, next: NextFunction): void {
  if (req.method === 'HEAD') req.method = 'GET';
  next();
}

/**
 * A body declared larger than the app ever reads is refused before any of it is read
 * (express.json would read and discard all of it first), and the connection is closed so that
 * the rest of it is never read either.
 */
function refuseDeclaredLargeBodies(req: Request, res: Response, next: NextFunction): void {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) {
    res.setHeader('Connection', 'close');
    return next(Object.assign(new Error('request entity too large'), { status: 413, type: 'entity.too.large' }));
  }
  next();
}
