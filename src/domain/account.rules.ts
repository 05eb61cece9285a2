// What an account's e-mail and password must be: one module, so that the login, the operator's
// command line, sign-up, invitations and resets apply the same rules as the contract.
import { InvalidInputError } from './errors.ts';

export const MIN_PASSWORD_LENGTH = 8;
/** The contract's Credentials.password maxLength: a longer password could never log in. */
export const MAX_PASSWORD_LENGTH = 1024;
/** The contract's Credentials.email maxLength. */
export const MAX_EMAIL_LENGTH = 254;
/**
 * The contract's EmailAddress pattern, verbatim (test/api/operations.test.ts compares them): the
 * operator's CLI then creates no account whose e-mail the login operation, the clients or the
 * dashboard would refuse. Applied to the lower-cased address.
 */
export const EMAIL_PATTERN =
  /^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?\.)+[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$/;

/** True for an e-mail (already normalised) that the API accepts, the login operation included. */
export function acceptsEmail(normalized: string): boolean {
  return EMAIL_PATTERN.test(normalized) && normalized.length <= MAX_EMAIL_LENGTH;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The address folded, or InvalidInputError when the API would not accept it. */
export function checkEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (!acceptsEmail(normalized)) {
    throw new InvalidInputError(
      `"${email}" is not an e-mail address the API accepts (ASCII, at most ${MAX_EMAIL_LENGTH} characters).`,
    );
  }
  return normalized;
}

/** Counted in characters (code points), as the contract's minLength and maxLength count them. */
export function checkPassword(password: string): void {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH) {
    throw new InvalidInputError(`The password must have ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`);
  }
}
