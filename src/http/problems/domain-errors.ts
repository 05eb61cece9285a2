// What each domain error answers with. The domain says what happened (src/domain/shared/errors.ts);
// this says it in HTTP.
import type { Request } from 'express';
import {
  type DomainError,
  IdempotencyKeyReusedError,
  InvalidCredentialsError,
  InvalidInputError,
  InvalidLinkError,
  MailUnavailableError,
  NotASessionError,
  NotFoundError,
  OriginNotAllowedError,
  PasswordResetOffError,
  PublishableKeyNotAllowedError,
  SignUpClosedError,
  IndexNotReadyError,
  StoreUnavailableError,
  TooManyKeysError,
  UnauthenticatedError,
  WrongPasswordError,
} from '../../domain/shared/errors.ts';
import { EdgeError, invalidRequest } from './edge.error.ts';
import { PROBLEMS } from './problems.ts';

export const RETRY_AFTER_UNAVAILABLE_SECONDS = 5;
/** The outbox's first retry comes after 30 s (src/domain/mail/mail.service.ts): asking again sooner sends nothing sooner. */
export const RETRY_AFTER_MAIL_SECONDS = 60;
const REALM = 'Bearer realm="school-search"';

/** The refusal a domain error stands for; undefined for one no request should meet (a 500). */
export function fromDomain(error: DomainError, req: Request): EdgeError | undefined {
  if (error instanceof UnauthenticatedError) return unauthorized(req, error);
  if (error instanceof InvalidCredentialsError) {
    return new EdgeError(PROBLEMS.invalidCredentials, error.message, { headers: { 'WWW-Authenticate': REALM } });
  }
  if (error instanceof NotASessionError) return new EdgeError(PROBLEMS.notASession, error.message);
  if (error instanceof NotFoundError) return new EdgeError(PROBLEMS.notFound, error.message);
  if (error instanceof TooManyKeysError) return new EdgeError(PROBLEMS.tooManyKeys, error.message);
  if (error instanceof PublishableKeyNotAllowedError)
    return new EdgeError(PROBLEMS.publishableKeyNotAllowed, error.message);
  if (error instanceof OriginNotAllowedError) return new EdgeError(PROBLEMS.originNotAllowed, error.message);
  if (error instanceof IdempotencyKeyReusedError) return new EdgeError(PROBLEMS.idempotencyKeyReused, error.message);
  // A rule the contract cannot state, checked by the domain: the client's input, not our fault.
  if (error instanceof InvalidInputError) {
    // A named field is one of the request body's (the only input the domain checks by name).
    return error.field
      ? invalidRequest([{ location: 'body', name: `/${error.field.name}`, message: error.field.reason }])
      : new EdgeError(PROBLEMS.validation, error.message);
  }
  if (error instanceof WrongPasswordError)
    return new EdgeError(PROBLEMS.wrongPassword, 'current_password is not the current password.');
  if (error instanceof SignUpClosedError) return new EdgeError(PROBLEMS.signUpClosed, error.message);
  if (error instanceof PasswordResetOffError) return new EdgeError(PROBLEMS.passwordResetOff, error.message);
  if (error instanceof InvalidLinkError) return new EdgeError(PROBLEMS.invalidLink, error.message);
  if (error instanceof MailUnavailableError) {
    return new EdgeError(PROBLEMS.mailUnavailable, error.message, {
      headers: { 'Retry-After': String(RETRY_AFTER_MAIL_SECONDS) },
      cause: error,
    });
  }
  if (error instanceof StoreUnavailableError) {
    // Only an index not ready says why: other causes may name files or hosts.
    const detail =
      error instanceof IndexNotReadyError
        ? `${error.message} Retry later.`
        : 'The service is temporarily unavailable. Retry later.';
    return new EdgeError(PROBLEMS.unavailable, detail, {
      headers: { 'Retry-After': String(RETRY_AFTER_UNAVAILABLE_SECONDS) },
      cause: error,
    });
  }
  return undefined;
}

function unauthorized(req: Request, failure: UnauthenticatedError): EdgeError {
  // RFC 6750: no error code when the request carried no credentials at all.
  const presented =
    req.headers.authorization !== undefined || req.query['tokenID'] !== undefined || req.query['key'] !== undefined;
  const challenge = presented && failure.reason !== 'missing' ? `${REALM}, error="invalid_token"` : REALM;
  return new EdgeError(PROBLEMS.unauthorized, 'The bearer token is missing, invalid, expired or revoked.', {
    headers: { 'WWW-Authenticate': challenge },
  });
}
