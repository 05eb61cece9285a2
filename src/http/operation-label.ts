// The `operation` label of a request's metrics: the operationId the validator matched, or a
// fixed group for routes outside the contract. Never the path: a label per distinct path would
// let any client create series without end.
import type { Request } from 'express';
import type { RouteGroup } from '../metrics/metrics.port.ts';

export function operationOf(req: Request): string {
  const operationId = (req as Request & { openapi?: { schema?: { operationId?: string } } }).openapi?.schema?.operationId;
  return operationId ?? routeGroup(req.originalUrl);
}

/**
 * `docs`: /, /docs, /openapi.json, /problems/…; `dashboard`: /dashboard…; `metrics`: /metrics;
 * `other`: everything that matched no operation (an unknown path or method, or a request refused
 * before it was matched, e.g. a 413). Compares characters only: allocates nothing.
 */
export function routeGroup(url: string): RouteGroup {
  if (url === '/' || url.charCodeAt(1) === 63 /* ? */ || under(url, '/docs') || under(url, '/openapi.json') || url.startsWith('/problems/')) return 'docs';
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
