// Authentication as express-openapi-validator's security handlers: the contract says which
// operations need a token; these resolve the token to a principal, or refuse.
import type { Request } from 'express';
import type { AuthService, Principal } from '../domain/auth.service.ts';
import { UnauthenticatedError } from '../domain/errors.ts';

const principals = new WeakMap<Request, Principal>();
const failures = new WeakMap<Request, UnauthenticatedError>();
const errors = new WeakMap<Request, unknown>();

/** The principal the security handler attached; handlers of secured operations always have one. */
export function principalOf(req: Request): Principal {
  const principal = principals.get(req);
  if (!principal) throw new UnauthenticatedError('missing');
  return principal;
}

/** Why authentication failed, for the 401 challenge (invalid_token vs. no token at all). */
export function authFailureOf(req: Request): UnauthenticatedError | undefined {
  return failures.get(req);
}

/**
 * An error that stopped authentication without saying anything about the token (the store is
 * unavailable, a bug). The validator reports every security-handler error as a 401; this one
 * must be answered as itself, or a client would throw away a good token.
 */
export function authErrorOf(req: Request): unknown {
  return errors.get(req);
}

function bearerValue(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  // Node keeps only the first of repeated Authorization headers; a proxy might use another one.
  // Ambiguous credentials authenticate nobody.
  if (req.rawHeaders.filter((_, i) => i % 2 === 0 && /^authorization$/i.test(req.rawHeaders[i]!)).length > 1) return '\u0000';
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  // Another scheme, or garbage: the same refusal as a wrong token.
  return match ? match[1] : '\u0000';
}

export function securityHandlers(auth: AuthService) {
  async function attach(req: Request, value: string | undefined): Promise<boolean> {
    try {
      principals.set(req, await auth.authenticate(value));
      return true;
    } catch (error) {
      if (error instanceof UnauthenticatedError) failures.set(req, error);
      else errors.set(req, error);
      throw error;
    }
  }
  return {
    bearerAuth: (req: Request) => attach(req, bearerValue(req)),
    // Deprecated tokenID query parameter: used only when there is no Authorization header, so a
    // bad header can never be rescued by a good query parameter.
    legacyTokenId: (req: Request) => {
      if (req.headers.authorization !== undefined) return false;
      const value = req.query['tokenID'];
      return attach(req, typeof value === 'string' ? value : undefined);
    },
  };
}
