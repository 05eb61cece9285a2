// What the app knows about one request, in one place: its id, the caller authentication found,
// and the operation express-openapi-validator matched. Kept beside the request (a WeakMap, so
// it goes when the request goes) rather than as fields added to Express's objects.
import type { Request } from 'express';
import type { Principal } from '../domain/accounts/accounts.ports.ts';
import { UnauthenticatedError } from '../domain/shared/errors.ts';
import type { RouteGroup } from '../metrics/metrics.port.ts';

interface RequestState {
  readonly id: string;
  principal?: Principal;
}

/** What express-openapi-validator attaches to a request it matched to an operation of the contract. */
interface Matched {
  openapi?: { schema?: { operationId?: string }; pathParams?: Record<string, string> };
}

const states = new WeakMap<Request, RequestState>();

/** Called once per request, first (src/http/middleware/request-id.ts). */
export function beginRequest(req: Request, id: string): void {
  states.set(req, { id });
}

export function requestIdOf(req: Request): string {
  return states.get(req)?.id ?? 'unknown';
}

/** Authentication found this caller (src/http/middleware/auth.ts). */
export function authenticated(req: Request, principal: Principal): void {
  const state = states.get(req);
  if (state) state.principal = principal;
  else states.set(req, { id: 'unknown', principal });
}

/** The principal authentication attached; handlers of secured operations always have one. */
export function principalOf(req: Request): Principal {
  const principal = states.get(req)?.principal;
  if (!principal) throw new UnauthenticatedError('missing');
  return principal;
}

/** The operationId of the contract the validator matched; undefined before it runs or when nothing matched. */
export function operationIdOf(req: Request): string | undefined {
  return (req as Request & Matched).openapi?.schema?.operationId;
}

/** The path parameters of the matched operation, decoded by the validator. */
export function pathParamsOf(req: Request): Record<string, string> {
  return (req as Request & Matched).openapi?.pathParams ?? {};
}

/**
 * The `operation` label of a request's metrics: its operationId, or a fixed group for routes
 * outside the contract. Never the path: a label per distinct path would let any client create
 * series without end.
 */
export function operationOf(req: Request): string {
  return operationIdOf(req) ?? routeGroup(req.originalUrl);
}

/**
 * `docs`: /, /docs, /openapi.json, /problems/…; `dashboard`: /dashboard…; `metrics`: /metrics;
 * `other`: everything that matched no operation (an unknown path or method, or a request refused
 * before it was matched, e.g. a 413). Compares characters only: allocates nothing.
 */
function routeGroup(url: string): RouteGroup {
  if (
    url === '/' ||
    url.charCodeAt(1) === 63 /* ? */ ||
    under(url, '/docs') ||
    under(url, '/openapi.json') ||
    url.startsWith('/problems/')
  )
    return 'docs';
  if (under(url, '/dashboard')) return 'dashboard';
  if (under(url, '/metrics')) return 'metrics';
  return 'other';
}

/** `url` is `prefix` itself, or below it, or it with a query or fragment. */
function under(url: string, prefix: string): boolean {
  if (!url.startsWith(prefix)) return false;
  const next = url.charCodeAt(prefix.length);
  return Number.isNaN(next) || next === 47 /* / */ || next === 63 /* ? */ || next === 35; /* # */
}
