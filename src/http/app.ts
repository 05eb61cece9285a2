// createApp builds the HTTP application from its dependencies without listening, so tests start
// real apps on port 0 and src/main.ts is the only place that binds a port. This file is the
// order of the middleware; each piece lives in its room: middleware/, operations/, problems/, routes/.
import express from 'express';
import type { Logger } from 'pino';
import type { QuotaCounter } from '../domain/metering/metering.ports.ts';
import type { Metrics, Scrape } from '../metrics/metrics.port.ts';
import type { Contract } from './contract.ts';
import { accessLog } from './middleware/access-log.ts';
import { authentication } from './middleware/auth.ts';
import { chain } from './middleware/chain.ts';
import { refuseDeclaredLargeBodies } from './middleware/body-size.ts';
import { corsPolicy, type CorsOrigins } from './middleware/cors.ts';
import { headAsGet } from './middleware/head-as-get.ts';
import { rateLimiting, type RateLimits } from './middleware/rate-limit.ts';
import { requestId } from './middleware/request-id.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { strictJsonBody, utf8Query } from './middleware/strict-input.ts';
import { strictIntegers } from './middleware/strict-integers.ts';
import { validator } from './middleware/validator.ts';
import { dispatch } from './operations/dispatch.ts';
import { createHandlers, type HandlerDeps } from './operations/handlers.ts';
import { errorMiddleware } from './problems/error.middleware.ts';
import { dashboardAssets, type DashboardAssets } from './routes/dashboard-assets.ts';
import { dashboardRoutes } from './routes/dashboard.routes.ts';
import { docsRoutes } from './routes/docs.routes.ts';
import { metricsRoute } from './routes/metrics.routes.ts';
import { outsideApi } from './routes/outside-api.ts';
import { pickerAssets, type PickerAssets } from './routes/picker-assets.ts';
import { pickerRoutes } from './routes/picker.routes.ts';
import { MAX_BODY_BYTES } from './server.ts';

export interface AppOptions extends HandlerDeps {
  readonly contract: Contract;
  /** Validate every response against the contract (development and test; off in production). */
  readonly validateResponses: boolean;
  readonly logger: Logger;
  readonly rateLimits: RateLimits;
  /** The store's quota counters, shared by every API process on it; undefined: this process counts alone. */
  readonly quotas: QuotaCounter | undefined;
  readonly corsOrigins: CorsOrigins;
  /** The dashboard's files (default: bundled from src/dashboard on the first request). */
  readonly dashboard?: () => Promise<DashboardAssets>;
  /** The school picker's script (default: bundled from clients/school-picker on the first request). */
  readonly picker?: () => Promise<PickerAssets>;
  /** Express's `trust proxy`; the client address keys the login rate limit. */
  readonly trustProxy?: boolean | number | string;
  /** Where requests, store failures and rate-limit refusals are reported (default: nowhere). */
  readonly metrics?: Metrics;
  /** GET /metrics on this app for a scraper presenting this bearer token (default: a 404 like any unknown path). */
  readonly metricsEndpoint?: { readonly token: string; readonly scrape: Scrape };
}

export function createApp(options: AppOptions): express.Express {
  const { contract, logger } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // The API's answers carry no validator (no ETag, no Last-Modified), so no conditional request
  // can be evaluated against them; yet Express's res.send answers 304 with no body whenever
  // req.fresh says so, and `If-None-Match: *` makes it say so for anything: a search, metered
  // and recorded, would reach the client as an empty 304. Conditional headers are ignored instead
  // (RFC 9110 13.2.1 lets a server without validators do so). Static files (Swagger UI, the
  // dashboard) are served by serve-static/send, which evaluate them against their own ETags.
  Object.defineProperty(app.request, 'fresh', { configurable: true, get: () => false });
  app.set('trust proxy', options.trustProxy ?? false);
  // Trusting no proxy, the client's address is the socket's: what req.ip would work out with
  // proxy-addr from the X-Forwarded-For header, on every request (express-rate-limit reads it on
  // each one, for a debug line even when its debug log is off).
  if (options.trustProxy === undefined || options.trustProxy === false)
    Object.defineProperty(app.request, 'ip', {
      configurable: true,
      enumerable: true,
      get(this: express.Request) {
        return this.socket.remoteAddress;
      },
    });
  const pages = [
    outsideApi(docsRoutes(contract)),
    outsideApi(dashboardRoutes(options.dashboard ?? dashboardAssets)),
    outsideApi(pickerRoutes(options.picker ?? pickerAssets)),
    ...(options.metricsEndpoint
      ? [outsideApi(metricsRoute(options.metricsEndpoint.token, options.metricsEndpoint.scrape))]
      : []),
  ];
  app.use(
    chain([
      requestId,
      accessLog(logger, options.metrics),
      securityHeaders(),
      corsPolicy(options.corsOrigins),
      headAsGet,
      ...pages,
      refuseDeclaredLargeBodies,
      utf8Query,
      express.json({
        limit: MAX_BODY_BYTES,
        type: ['application/json', 'application/*+json'],
        strict: true,
        verify: strictJsonBody,
      }),
      ...validator(contract, authentication(options.auth, contract), options.validateResponses),
      strictIntegers(contract),
      rateLimiting(options.rateLimits, logger, options.quotas, (email, proof) =>
        options.auth.recognisesDevice(email, proof),
      ),
      dispatch(createHandlers(options), options.validateResponses),
    ]),
  );
  app.use(errorMiddleware(logger, options.metrics));
  return app;
}
