// The errors body-parser (express.json) and express-openapi-validator pass on, as EdgeErrors.
// Neither library exports a type to test for, so their shapes are recognised here, and only
// here: `type` (body-parser's http-errors) and `status` with `errors`/`headers` (the validator).
import type { Request } from 'express';
import { EdgeError, invalidRequest } from './edge.error.ts';
import { PROBLEMS, type ProblemItem } from './problems.ts';

interface LibraryError {
  status?: unknown;
  type?: unknown;
  errors?: unknown;
  headers?: Record<string, string>;
}

/** The refusal a library's error stands for; undefined when it is none (a bug: a 500). */
export function fromLibrary(error: unknown, req: Request): EdgeError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as LibraryError;
  switch (e.type) {
    case 'entity.parse.failed':
      return new EdgeError(PROBLEMS.malformedJson, 'The request body must be one JSON object.');
    case 'entity.too.large':
      return new EdgeError(PROBLEMS.payloadTooLarge, 'The request body is larger than 16 KiB.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new EdgeError(PROBLEMS.unsupportedMediaType, 'The request body must be UTF-8 encoded JSON.');
  }
  switch (e.status) {
    case 400:
      return invalidRequest(validationItems(e.errors, req));
    case 404:
      return new EdgeError(PROBLEMS.notFound, `There is no ${req.method} ${req.path}.`);
    case 405: {
      const allow = allowed(e.headers?.['Allow'] ?? e.headers?.['allow']);
      return new EdgeError(
        PROBLEMS.methodNotAllowed,
        `${req.method} is not allowed on ${req.path}.`,
        allow ? { headers: { Allow: allow } } : {},
      );
    }
    case 413:
      return new EdgeError(PROBLEMS.payloadTooLarge, 'The request body is too large.');
    case 415:
      return new EdgeError(PROBLEMS.unsupportedMediaType, 'The request body must be application/json.');
    default:
      return undefined;
  }
}

/** The contract's methods for the path, plus HEAD wherever GET is (the app answers it, RFC 9110). */
function allowed(fromValidator: string | undefined): string | undefined {
  if (!fromValidator) return undefined;
  const methods = fromValidator
    .toUpperCase()
    .split(/\s*,\s*/)
    .filter(Boolean);
  if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
  return methods.join(', ');
}

/** express-openapi-validator reports paths like "/query/limit" or "/body/email". */
function validationItems(raw: unknown, req: Request): ProblemItem[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((item: { path?: string; message?: string; errorCode?: string }) => {
    const match = /^[./]?(query|path|params|headers|body)(?:[./](.*))?$/.exec(item.path ?? '');
    if (!match) {
      // Not about a parameter or the body: the URL itself (e.g. broken percent-encoding).
      const message = /malformed uri/i.test(item.message ?? '')
        ? 'is not valid percent-encoding'
        : (item.message ?? 'is invalid');
      return { location: 'path', name: req.path, message };
    }
    const where = match[1]!;
    const rest = match[2] ?? '';
    const location: ProblemItem['location'] =
      where === 'params' ? 'path' : where === 'headers' ? 'header' : (where as ProblemItem['location']);
    const name = location === 'body' ? `/${rest.replace(/\./g, '/')}` : rest;
    const field = `${location}:${name.replace(/\/\d+(?=\/|$)/g, '/*')}`;
    const plain =
      PLAIN_MESSAGES[field] ?? (item.errorCode?.startsWith('pattern.') ? PATTERN_MESSAGES[field] : undefined);
    return { location, name, message: plain ?? item.message ?? 'is invalid' };
  });
}

/**
 * What to say instead of the validator's message, for parameters whose schema makes that message
 * useless to a person: `stateCode`'s pattern (every code in either case) would be quoted whole.
 */
const PLAIN_MESSAGES: Readonly<Record<string, string>> = {
  'query:stateCode': 'is not a US or Canadian state, province or territory code (two letters, e.g. TX or on)',
};

/**
 * What to say instead of "must match pattern" and the pattern itself, field by field (array
 * items as `*`): what the pattern means, in words. The official clients refuse the same inputs
 * before sending with the same words (clients/typescript/src/request-check.ts,
 * clients/python/school_search_client/_checks.py; test/client/messages.test.ts compares them).
 */
const PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  'query:query': 'must have a character other than white space',
  'query:near': 'must be <latitude>,<longitude> in decimal degrees (e.g. 40.8136,-96.7026)',
  'body:/name': 'must have a visible character, and no control or format characters',
  'body:/origins/*': 'must be scheme://host[:port] with http or https, and no path, query or trailing slash',
};
