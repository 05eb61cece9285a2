// express-openapi-validator, configured once, with authentication in the slot of its own
// security check.
import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Contract } from '../contract.ts';

export function validator(
  contract: Contract,
  authenticate: RequestHandler,
  validateResponses: boolean,
): RequestHandler[] {
  return withAuthentication(
    authenticate,
    OpenApiValidator.middleware({
      // The validator annotates the document it is given: hand it its own copy.
      apiSpec: structuredClone(contract) as never,
      // Query and path parameters are always coerced from strings; bodies never are (a number
      // is not a password). allErrors: a 400 lists everything that is wrong, not the first thing.
      validateRequests: { allowUnknownQueryParameters: false, allErrors: true },
      validateResponses: validateResponses ? { removeAdditional: false } : false,
      // Authentication takes the slot of the validator's security check (./auth.ts says why).
      validateSecurity: false,
      validateFormats: true,
      ignoreUndocumented: false,
      // Not again at every start: checking the whole document against the OpenAPI 3.1 schema
      // took 100–250 ms of each start's CPU, for a file that only changes in a commit. CI checks
      // it (Redocly and Spectral in `npm run lint`, and this validator's own check in
      // test/http/contract-check.test.ts).
      validateApiSpec: false,
    }),
  );
}

/**
 * The validator's middlewares with `authenticate` in the place of its own security check (a
 * pass-through when validateSecurity is off): after the route is matched, before the request is
 * validated. The validator names its steps; a version that renames this one stops start-up.
 */
function withAuthentication(authenticate: RequestHandler, steps: RequestHandler[]): RequestHandler[] {
  const slot = steps.findIndex((step) => step.name === 'securityMiddleware');
  if (slot < 0)
    throw new Error('express-openapi-validator has no securityMiddleware step: see src/http/middleware/auth.ts');
  return steps.with(slot, authenticate);
}
