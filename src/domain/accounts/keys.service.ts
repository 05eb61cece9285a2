// Named API keys: tokens a user makes for a program, with a lifetime of up to a year. A key is a
// token like any other (same prefix, digest storage and authentication), so every client's
// `apiKey` option takes one; only its name, lifetime and cap differ from a session token's.
import type { AccountNotices } from './account-notices.ts';
import type { Principal } from './accounts.ports.ts';
import { tokenHolds } from './credentials.ts';
import { InvalidInputError, NotFoundError, TooManyKeysError } from '../shared/errors.ts';
import type { Clock } from '../shared/clock.ts';
import type { TokenRecord, TokenStore, User } from './accounts.ports.ts';
import { mintToken } from './token.ts';

/** Live API keys a user can hold: a list a person can still read, and a bound on what a leak can mint. */
export const MAX_LIVE_KEYS = 20;
/** The longest lifetime of a key (the contract's expires_in_days maximum): a forgotten key still dies. */
export const MAX_KEY_DAYS = 365;
/** In code points (an emoji is one), as the contract's maxLength counts: not UTF-16 units. */
export const MAX_KEY_NAME_LENGTH = 64;
const DAY_MS = 86_400_000;
/**
 * What a name may not hold: control (Cc) and format (Cf: bidi overrides and isolates, zero-width
 * characters, BOM, Unicode tags) characters, and lone surrogates (Cs). A name is shown in the
 * dashboard and its revoke dialog, where `\u202Egpj.exe` reads "exe.jpg".
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}]/u;
/**
 * A character a person sees: none of the above, nor white space, nor a blank letter (Hangul
 * fillers, the blank Braille pattern), nor a default-ignorable one (variation selectors, the
 * combining grapheme joiner, Khmer inherent vowels: a name of 64 U+FE0F is a blank row). The
 * contract's pattern says the same for U+0000–U+FFFF.
 */
const VISIBLE = /[^\s\p{Cc}\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}\u2800]/u;
/**
 * More combining marks on one character than any script writes (Vietnamese stacks two, Hebrew
 * with cantillation three or four): a "Zalgo" name drawn over the rows around it.
 */
const MARK_PILE = /\p{M}{5,}/u;

/** Why `name` cannot name a key, or undefined when it can. The contract's pattern says the same for U+0000–U+FFFF. */
export function keyNameProblem(name: string): string | undefined {
  const length = [...name].length;
  if (length < 1 || length > MAX_KEY_NAME_LENGTH) return `must have 1 to ${MAX_KEY_NAME_LENGTH} characters`;
  if (HIDDEN.test(name)) return 'must not contain control, format (bidi, zero-width) or lone surrogate characters';
  if (!VISIBLE.test(name)) return 'must contain a visible character';
  if (MARK_PILE.test(name)) return 'must not put more than four combining marks on one character';
  return undefined;
}

export interface IssuedKey {
  readonly record: TokenRecord;
  /** The key's value: in this answer only. */
  readonly value: string;
}

/** Confirms the caller's current password (AuthService does) and hands back the account, or throws WrongPasswordError. */
export interface PasswordCheck {
  confirmPassword(principal: Principal, password: string): Promise<User>;
}

export class KeyService {
  readonly #tokens: TokenStore;
  readonly #clock: Clock;
  readonly #passwords: PasswordCheck;
  readonly #notices: AccountNotices | undefined;

  constructor(deps: { tokens: TokenStore; clock: Clock; passwords: PasswordCheck; notices?: AccountNotices }) {
    this.#tokens = deps.tokens;
    this.#clock = deps.clock;
    this.#passwords = deps.passwords;
    this.#notices = deps.notices;
  }

  /**
   * Issues a named key living `days` days, once the caller's current password is confirmed: a
   * stolen one-hour session must not turn into year-long keys. The cap is checked before the
   * insert, so two requests at once may end one above it; the next creation is refused all the
   * same. The owner is mailed about every new key, as GitHub does: a key made by someone else
   * (who had the password) does not go unnoticed.
   */
  async create(principal: Principal, name: string, days: number, currentPassword: string): Promise<IssuedKey> {
    const problem = keyNameProblem(name);
    if (problem) throw new InvalidInputError(`The name ${problem}.`, { name: 'name', reason: problem });
    if (!Number.isInteger(days) || days < 1 || days > MAX_KEY_DAYS) {
      throw new InvalidInputError(`A key lives 1 to ${MAX_KEY_DAYS} days.`);
    }
    const user = await this.#passwords.confirmPassword(principal, currentPassword);
    const now = this.#clock.now();
    const live = await this.#tokens.listLive(principal.userId, now);
    if (live.filter((t) => t.kind === 'key').length >= MAX_LIVE_KEYS) throw new TooManyKeysError(MAX_LIVE_KEYS);
    const issued = mintToken(principal.userId, 'key', name, now, days * DAY_MS, {
      passwordVersion: user.passwordVersion,
      authenticatedAt: now,
    });
    await this.#tokens.insert(issued.record);
    await this.#notices?.keyCreated(user.email, issued.record);
    return issued;
  }

  /**
   * A new value for one of the caller's live keys, with its name and lifetime; the old value is
   * revoked in the same step. Anything but a live key of the caller's is "not found". Needs the
   * current password: rotating locks the key's programs out until they get the new value.
   */
  async rotate(principal: Principal, tokenId: string, currentPassword: string): Promise<IssuedKey> {
    const user = await this.#passwords.confirmPassword(principal, currentPassword);
    const now = this.#clock.now();
    const old = (await this.#tokens.listLive(principal.userId, now)).find((t) => t.id === tokenId && t.kind === 'key');
    // A key a password change voided is no key, even where its revocation did not happen yet.
    if (!old || !tokenHolds(old, user)) throw new NotFoundError('There is no such API key.');
    const issued = mintToken(
      principal.userId,
      'key',
      old.name,
      now,
      old.expiresAt.getTime() - old.createdAt.getTime(),
      {
        passwordVersion: user.passwordVersion,
        authenticatedAt: now,
      },
    );
    // False when a concurrent request revoked it between the read and now.
    if (!(await this.#tokens.rotate(principal.userId, old.id, issued.record, now)))
      throw new NotFoundError('There is no such API key.');
    return issued;
  }
}
