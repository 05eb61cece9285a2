// Integer query parameters must be written as decimal digits. The validator coerces query
// strings with JavaScript's Number(): `Infinity`, `1e400` and 400-digit numbers become Infinity,
// which passes its minimum/maximum checks, and `0x10` or `1e1` become 16 or 10. This runs right
// after the validator and refuses any of those with the same 400 as the validator's.
import type { NextFunction, Request, Response } from 'express';
import type { Contract } from '../contract.ts';
import { invalidRequest } from '../problems/edge.error.ts';
import { operationIdOf } from '../request.ts';

interface Parameter {
  name?: string;
  in?: string;
  schema?: { type?: unknown };
  $ref?: string;
}

/** Up to 15 digits: every such number is exact in a double; the validator has checked the range. */
const DECIMAL = /^[+-]?\d{1,15}$/;

export function strictIntegers(contract: Contract) {
  const integerParams = integerQueryParameters(contract);
  return (req: Request, _res: Response, next: NextFunction) => {
    const operationId = operationIdOf(req);
    const names = operationId ? integerParams.get(operationId) : undefined;
    if (!names || names.length === 0) return next();
    // Everything after the first `?`: a query value may contain `?` itself (allowReserved).
    const at = req.originalUrl.indexOf('?');
    if (at < 0) return next();
    const raw = new URLSearchParams(req.originalUrl.slice(at + 1));
    let errors: { location: 'query'; name: string; message: string }[] | undefined;
    for (const name of names) {
      if (!raw.has(name) || raw.getAll(name).every((value) => DECIMAL.test(value))) continue;
      errors ??= [];
      errors.push({ location: 'query', name, message: 'must be an integer written in decimal digits' });
    }
    if (errors !== undefined) return next(invalidRequest(errors));
    next();
  };
}

/** operationId → names of its query parameters typed integer ($refs to components resolved). */
function integerQueryParameters(contract: Contract): Map<string, string[]> {
  const components =
    (contract['components'] as { parameters?: Record<string, Parameter> } | undefined)?.parameters ?? {};
  const resolve = (p: Parameter): Parameter =>
    p.$ref ? (components[p.$ref.replace('#/components/parameters/', '')] ?? p) : p;
  const result = new Map<string, string[]>();
  for (const pathItem of Object.values(contract.paths)) {
    const shared = ((pathItem as { parameters?: Parameter[] }).parameters ?? []).map(resolve);
    for (const operation of Object.values(pathItem) as Array<{ operationId?: string; parameters?: Parameter[] }>) {
      if (!operation || typeof operation !== 'object' || !operation.operationId) continue;
      const params = [...shared, ...(operation.parameters ?? []).map(resolve)];
      result.set(
        operation.operationId,
        params.filter((p) => p.in === 'query' && p.schema?.type === 'integer' && p.name).map((p) => p.name!),
      );
    }
  }
  return result;
}
