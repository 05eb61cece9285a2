// Domain errors carry a stable `code` and no HTTP: the one error middleware maps them to
// problem+json (src/http/problems/error.middleware.ts).

export abstract class DomainError extends Error {
  abstract readonly code: string;

  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    // Every subclass is named in logs and stack traces by its own class name (the server's
    // code runs unminified, so class names are what they say).
    this.name = new.target.name;
  }
}

/** E-mail and password do not match an account. Deliberately says nothing about which. */
export class InvalidCredentialsError extends DomainError {
  readonly code = 'invalid_credentials';
  constructor() {
    super('The e-mail and password do not match an account.');
  }
}

export type AuthFailure = 'missing' | 'malformed' | 'unknown' | 'expired' | 'revoked';

/** The presented token cannot authenticate anyone. */
export class UnauthenticatedError extends DomainError {
  readonly code = 'unauthenticated';
  readonly reason: AuthFailure;
  constructor(reason: AuthFailure) {
    super('The bearer token is missing, invalid, expired or revoked.');
    this.reason = reason;
  }
}

/** The resource does not exist, or is not the caller's: the two are indistinguishable. */
export class NotFoundError extends DomainError {
  readonly code = 'not_found';
}

/** An account with this e-mail exists already (operator command). */
export class EmailTakenError extends DomainError {
  readonly code = 'email_taken';
  constructor(email: string) {
    super(`An account with the e-mail ${email} exists already.`);
  }
}

/** Input the contract cannot express a rule for (checked in the domain). */
export class InvalidInputError extends DomainError {
  readonly code = 'invalid_input';
  /** The input field at fault, when there is one, and what is wrong with it. */
  readonly field: { readonly name: string; readonly reason: string } | undefined;
  constructor(message: string, field?: { name: string; reason: string }) {
    super(message);
    this.field = field;
  }
}

/** The current password given to change it is not the user's: a fault of the input, not of the token. */
export class WrongPasswordError extends DomainError {
  readonly code = 'wrong_password';
  constructor() {
    super('The current password is not right.');
  }
}

/** The operation renews a login's session, and was presented something else (an API key). */
export class NotASessionError extends DomainError {
  readonly code = 'not_a_session';
  constructor() {
    super(
      'Only a session token (from POST /v1/auth) can be rotated here; rotate an API key with POST /v1/keys/{tokenId}/rotate.',
    );
  }
}

/** The user holds as many live API keys (of that type) as there can be; nothing was created. */
export class TooManyKeysError extends DomainError {
  readonly code = 'too_many_keys';
  constructor(max: number, type: 'API keys' | 'publishable keys' = 'API keys') {
    super(`You hold ${max} live ${type}, the most there can be. Revoke one first.`);
  }
}

/** A publishable key was presented for something only a session or a secret key may do. */
export class PublishableKeyNotAllowedError extends DomainError {
  readonly code = 'publishable_key_not_allowed';
  constructor() {
    super('A publishable key can search and read schools only; this operation needs a session token or a secret key.');
  }
}

/** A publishable key's request came from a page that is not one of its origins, or from none. */
export class OriginNotAllowedError extends DomainError {
  readonly code = 'origin_not_allowed';
  /** The page's origin as the request named it; undefined when it named none. */
  readonly origin: string | undefined;
  // The key's list is not quoted: a stranger holding the key need not learn its owner's sites.
  constructor(origin: string | undefined) {
    super(
      origin === undefined
        ? 'A publishable key works only from the pages of its origins, and this request named none (no Origin or Referer header).'
        : `This publishable key does not work from ${origin}: its owner can add that origin to the key in the dashboard.`,
    );
    this.origin = origin;
  }
}

/**
 * A search's Idempotency-Key was sent before, by the same user, with another search: nothing
 * was searched or metered (search.service.ts).
 */
export class IdempotencyKeyReusedError extends DomainError {
  readonly code = 'idempotency_key_reused';
  constructor() {
    super('This Idempotency-Key was sent with another search. Send a new key for a new search.');
  }
}

/**
 * A request record with this id is stored already (RequestLog.append): nothing was written.
 * Only a search with an Idempotency-Key (its record's id made from the key) can meet it.
 */
export class RecordExistsError extends DomainError {
  readonly code = 'record_exists';
  readonly id: string;
  constructor(id: string) {
    super(`A request record ${id} is stored already.`);
    this.id = id;
  }
}

/** The store cannot be reached or refuses work right now; retrying later may succeed. */
export class StoreUnavailableError extends DomainError {
  readonly code = 'store_unavailable';
  constructor(message = 'The store is unavailable.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The search index is not ready yet (being read from its file or built, at start-up): a store
 * unavailability whose message is written for clients, and is their problem's detail.
 */
export class IndexNotReadyError extends StoreUnavailableError {}

/** Self-service sign-up (or, for an invitation, any sign-up) is off on this server (SIGNUP). */
export class SignUpClosedError extends DomainError {
  readonly code = 'signup_closed';
}

/** Password reset by e-mail needs mail, and this server sends none (production without SMTP_URL). */
export class PasswordResetOffError extends DomainError {
  readonly code = 'password_reset_off';
  constructor() {
    super('Password reset by e-mail is not set up on this server. Ask its operator.');
  }
}

/**
 * A link from an e-mail (sign-up, reset, invitation) that cannot be used: unknown, used already,
 * or expired. The three are one answer: a guess learns nothing.
 */
export class InvalidLinkError extends DomainError {
  readonly code = 'invalid_link';
  constructor() {
    super('This link is not valid: it was used already, it expired, or it was never issued. Ask for a new one.');
  }
}

/**
 * The mail system did not take a message. What the request asked for is stored, and the message
 * stays in the outbox, retried until it goes out: a later retry may succeed.
 */
export class MailUnavailableError extends DomainError {
  readonly code = 'mail_unavailable';
  constructor(options?: { cause?: unknown }) {
    super('The e-mail could not be sent yet. It is kept and sent again automatically.', options);
  }
}
