// Authentication: the contract says which operations need a token and how it may be presented
// (`security`); this middleware resolves the token to a principal, or refuses with the domain's
// UnauthenticatedError. It takes the place of express-openapi-validator's own security check
// (src/http/app.ts puts it in that slot, after the route is matched and before the request is validated,
// so a request without a token is a 401 whatever else is wrong with it). The validator's check
// tries every alternative at once and builds an Error for each one that is absent — the
// `tokenID` alternative on every bearer request, a share of every search's CPU that showed in
// its profile (docs/runs/performance.md, "The generated catalog") — and hides what a
// handler threw behind its own 401; this one tries the single alternative a request presents.
//
// A publishable key (spk_…) is a page's key: it authenticates only the operations in
// PUBLISHABLE_OPERATIONS, and only from the pages of its origins; the answers to it carry CORS
// headers for that page alone (keyCors below), whatever CORS_ORIGINS says about programs.
import type { NextFunction, Request, Response } from 'express';
import type { Principal } from '../../domain/accounts/accounts.ports.ts';
import type { AuthService } from '../../domain/accounts/auth.service.ts';
import { requestOrigin } from '../../domain/accounts/origins.ts';
import { looksPublishable } from '../../domain/accounts/token.ts';
import { PublishableKeyNotAllowedError } from '../../domain/shared/errors.ts';
import type { Contract } from '../contract.ts';
import { authenticated, operationIdOf } from '../request.ts';
import { EXPOSED_HEADERS } from './cors.ts';

/** The schemes of the contract's components.securitySchemes this middleware implements. */
const SCHEMES = ['bearerAuth', 'legacyTokenId', 'publishableKey'] as const;
type Scheme = (typeof SCHEMES)[number];
type Requirement = Record<string, unknown>;

/**
 * The operations whose handler commits a request record through SearchService (each answer
 * carries it): their token may be taken as the store remembers it, the record's commit checking
 * that it still holds (AuthService.authenticateMetered). Every other operation reads its token.
 */
const METERED: ReadonlySet<string> = new Set(['fetchSchoolSearch']);

/**
 * What a publishable key may do: search and read a school (a school's image needs no token).
 * Every other operation refuses it with a 403 naming the key's kind, even one whose security
 * accepts a bearer token: the contract's `publishableKey` scheme and this set say the same.
 */
export const PUBLISHABLE_OPERATIONS: ReadonlySet<string> = new Set(['fetchSchoolSearch', 'getSchool']);

export function authentication(auth: AuthService, contract: Contract) {
  const schemes = schemesByOperation(contract);
  return (req: Request, res: Response, next: NextFunction) => {
    const operationId = operationIdOf(req);
    const accepted = operationId === undefined ? undefined : schemes.get(operationId);
    // Unmatched routes (the validator answers them) and operations open to anyone.
    if (!accepted) return next();
    const value = presented(req, accepted);
    const page = value !== undefined && looksPublishable(value);
    // A page's request hears its own problems (an unknown key, a refused origin, a quota spent):
    // a problem tells a page nothing it may not know, and shows its developer why.
    if (page) keyCors(req, res);
    (METERED.has(operationId!) ? auth.authenticateMetered(value) : auth.authenticate(value))
      .then((principal) => admitted(auth, req, operationId!, principal))
      .then(
        (principal) => {
          authenticated(req, principal);
          next();
        },
        // An UnauthenticatedError is a 401; anything else (the store is unavailable) answers as itself.
        next,
      );
  };
}

/** The principal, with the page it came through for a publishable key; throws when the key may not be used here. */
function admitted(auth: AuthService, req: Request, operationId: string, principal: Principal): Principal {
  if (!principal.publishable) return principal;
  if (!PUBLISHABLE_OPERATIONS.has(operationId)) throw new PublishableKeyNotAllowedError();
  return auth.admitOrigin(principal, requestOrigin(header(req, 'origin'), header(req, 'referer')));
}

/**
 * CORS for a request made with a publishable key: the page's own origin, never `*`, so a
 * successful answer reaches only a page the key lists (any other gets the 403 above). `Vary`
 * because the same URL answers each page with its own header.
 */
function keyCors(req: Request, res: Response): void {
  res.vary('Origin');
  const origin = header(req, 'origin');
  if (origin === undefined) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS.join(','));
}

function header(req: Request, name: 'origin' | 'referer'): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The credential the request presents among the accepted schemes. The Authorization header wins
 * whenever it is sent, so a bad header is never rescued by a good query parameter; then the
 * deprecated `tokenID`, then a publishable `key`; without any, the token is missing.
 */
function presented(req: Request, accepted: ReadonlySet<Scheme>): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) {
    const tokenId = req.query['tokenID'];
    if (tokenId !== undefined && accepted.has('legacyTokenId')) {
      // Repeated or empty: presented, but not a token.
      return typeof tokenId === 'string' && tokenId !== '' ? tokenId : '\u0000';
    }
    const key = req.query['key'];
    if (typeof key === 'string' && looksPublishable(key)) return key; // and then a 403 if the operation is not a page's
    if (key !== undefined && accepted.has('publishableKey')) {
      // Only a publishable key travels in a URL: a secret key there (or anything else) is
      // refused as a wrong token, before it is looked up, whichever user it would be.
      return '\u0000';
    }
  }
  return accepted.has('bearerAuth') ? bearerValue(req) : undefined;
}

function bearerValue(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  // Node keeps only the first of repeated Authorization headers; a proxy might use another one.
  // Ambiguous credentials authenticate nobody.
  if (authorizationHeaders(req.rawHeaders) > 1) return '\u0000';
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  // Another scheme, or garbage: the same refusal as a wrong token.
  return match ? match[1] : '\u0000';
}

/** How many Authorization headers the request has (names at even indexes; counted without a copy, on every request). */
function authorizationHeaders(raw: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === 'authorization') count++;
  return count;
}

/**
 * operationId → the schemes it accepts; absent: open to anyone (`security: []` or an empty
 * alternative). A scheme the contract names but this file does not implement stops start-up.
 */
function schemesByOperation(contract: Contract): Map<string, ReadonlySet<Scheme>> {
  const global = (contract['security'] as Requirement[] | undefined) ?? [];
  const result = new Map<string, ReadonlySet<Scheme>>();
  for (const pathItem of Object.values(contract.paths)) {
    for (const operation of Object.values(pathItem) as { operationId?: string; security?: Requirement[] }[]) {
      if (typeof operation !== 'object' || operation === null || !operation.operationId) continue;
      const requirements = operation.security ?? global;
      if (requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0)) continue;
      const accepted = new Set<Scheme>();
      for (const requirement of requirements) {
        const names = Object.keys(requirement);
        if (names.length !== 1 || !(SCHEMES as readonly string[]).includes(names[0]!)) {
          throw new Error(
            `${operation.operationId}: security requirement ${JSON.stringify(requirement)} is not implemented (src/http/middleware/auth.ts)`,
          );
        }
        accepted.add(names[0] as Scheme);
      }
      result.set(operation.operationId, accepted);
    }
  }
  return result;
}
