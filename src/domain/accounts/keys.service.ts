// Named API keys: tokens a user makes. A secret key (for a program, with a lifetime of up to a
// year) is a token like any other (same prefix, digest storage and authentication), so every
// client's `apiKey` option takes one; only its name, lifetime and cap differ from a session
// token's. A publishable key (for a web page's source) is a key with a scope: the origins it
// works from and the budgets it spends (decision 0025); what it may do is search and read
// schools, and nothing else (AuthService.admitOrigin, the HTTP edge's operation check).
import type { AccountNotices } from './account-notices.ts';
import type { KeyChange, Principal, PublishableScope } from './accounts.ports.ts';
import { tokenHolds } from './credentials.ts';
import { MAX_ORIGINS, parseOriginPattern } from './origins.ts';
import { InvalidInputError, NotFoundError, TooManyKeysError } from '../shared/errors.ts';
import type { Clock } from '../shared/clock.ts';
import type { TokenRecord, TokenStore, User } from './accounts.ports.ts';
import { mintToken } from './token.ts';

/** Live secret keys a user can hold: a list a person can still read, and a bound on what a leak can mint. */
export const MAX_LIVE_KEYS = 20;
/** Live publishable keys a user can hold, besides the secret ones: a few sites, each a key or two. */
export const MAX_LIVE_PUBLISHABLE_KEYS = 20;
/** The longest lifetime of a secret key (the contract's expires_in_days maximum): a forgotten key still dies. */
export const MAX_KEY_DAYS = 365;
/** A publishable key sits in pages that are not redeployed for a key's sake: up to ten years, a year by default. */
export const MAX_PUBLISHABLE_KEY_DAYS = 3650;
export const DEFAULT_PUBLISHABLE_KEY_DAYS = 365;
/** A visitor's share a minute unless the owner says otherwise: a person types a few letters a second in bursts. */
export const DEFAULT_VISITOR_SEARCHES_PER_MINUTE = 60;

/** What an account may let one publishable key spend (the server's settings). */
export interface PublishableLimits {
  /** Searches a minute: the account's own search quota a minute (RATE_LIMIT_SEARCH_PER_USER). */
  readonly perMinute: number;
  /** Searches in 24 hours for one key (PUBLISHABLE_SEARCHES_PER_DAY_MAX). */
  readonly perDay: number;
}

/** The budgets asked for; absent ones take their defaults. */
export interface PublishableRequest {
  readonly origins: readonly string[];
  readonly perMinute?: number | undefined;
  readonly perDay?: number | undefined;
  readonly perVisitorPerMinute?: number | undefined;
}
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
  readonly #limits: PublishableLimits;

  constructor(deps: {
    tokens: TokenStore;
    clock: Clock;
    passwords: PasswordCheck;
    notices?: AccountNotices;
    /** Default: 300 a minute (the default search quota), 100,000 a day. */
    limits?: PublishableLimits;
  }) {
    this.#tokens = deps.tokens;
    this.#clock = deps.clock;
    this.#passwords = deps.passwords;
    this.#notices = deps.notices;
    this.#limits = deps.limits ?? { perMinute: 300, perDay: 100_000 };
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
    if (live.filter((t) => t.kind === 'key' && !t.publishable).length >= MAX_LIVE_KEYS)
      throw new TooManyKeysError(MAX_LIVE_KEYS);
    const issued = mintToken(principal.userId, 'key', name, now, days * DAY_MS, {
      passwordVersion: user.passwordVersion,
      authenticatedAt: now,
    });
    await this.#tokens.insert(issued.record);
    await this.#notices?.keyCreated(user.email, issued.record);
    return issued;
  }

  /**
   * A new value for one of the caller's live keys, secret or publishable, with its name, scope
   * and lifetime; the old value is revoked in the same step. Anything but a live key of the
   * caller's is "not found". Needs the current password: rotating locks the key's programs (or
   * pages) out until they get the new value.
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
      old.publishable ?? undefined,
    );
    // False when a concurrent request revoked it between the read and now.
    if (!(await this.#tokens.rotate(principal.userId, old.id, issued.record, now)))
      throw new NotFoundError('There is no such API key.');
    return issued;
  }

  /**
   * Issues a publishable key for web pages of `origins`, once the caller's current password is
   * confirmed (every key value is minted so). Its budgets are within what the account may spend;
   * the owner is mailed about it, as about every new key.
   */
  async createPublishable(
    principal: Principal,
    name: string,
    request: PublishableRequest,
    days: number,
    currentPassword: string,
  ): Promise<IssuedKey> {
    const problem = keyNameProblem(name);
    if (problem) throw new InvalidInputError(`The name ${problem}.`, { name: 'name', reason: problem });
    if (!Number.isInteger(days) || days < 1 || days > MAX_PUBLISHABLE_KEY_DAYS) {
      throw new InvalidInputError(`A publishable key lives 1 to ${MAX_PUBLISHABLE_KEY_DAYS} days.`);
    }
    const scope = this.#scope(request);
    const user = await this.#passwords.confirmPassword(principal, currentPassword);
    const now = this.#clock.now();
    const live = await this.#tokens.listLive(principal.userId, now);
    if (live.filter((t) => t.publishable).length >= MAX_LIVE_PUBLISHABLE_KEYS)
      throw new TooManyKeysError(MAX_LIVE_PUBLISHABLE_KEYS, 'publishable keys');
    const issued = mintToken(
      principal.userId,
      'key',
      name,
      now,
      days * DAY_MS,
      { passwordVersion: user.passwordVersion, authenticatedAt: now },
      scope,
    );
    await this.#tokens.insert(issued.record);
    await this.#notices?.keyCreated(user.email, issued.record);
    return issued;
  }

  /**
   * Renames one of the caller's live keys and, for a publishable one, changes its origins or
   * budgets (what is not given stays). No password: nothing here gives a key a right it lacked.
   * Origins or budgets for a secret key are refused: a secret key never becomes a publishable one.
   */
  async update(
    principal: Principal,
    tokenId: string,
    change: { readonly name?: string | undefined } & Partial<PublishableRequest>,
  ): Promise<TokenRecord> {
    if (change.name !== undefined) {
      const problem = keyNameProblem(change.name);
      if (problem) throw new InvalidInputError(`The name ${problem}.`, { name: 'name', reason: problem });
    }
    const now = this.#clock.now();
    const key = (await this.#tokens.listLive(principal.userId, now)).find((t) => t.id === tokenId && t.kind === 'key');
    if (!key) throw new NotFoundError('There is no such API key.');
    const scoped =
      change.origins !== undefined ||
      change.perMinute !== undefined ||
      change.perDay !== undefined ||
      change.perVisitorPerMinute !== undefined;
    if (scoped && !key.publishable) {
      throw new InvalidInputError(
        'This is a secret key: origins and budgets belong to publishable keys. Create a publishable key instead.',
        { name: 'origins', reason: 'only a publishable key has origins and budgets' },
      );
    }
    const next: KeyChange = {
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(scoped && key.publishable
        ? {
            publishable: this.#scope({
              origins: change.origins ?? key.publishable.origins,
              perMinute: change.perMinute ?? key.publishable.perMinute,
              perDay: change.perDay ?? key.publishable.perDay,
              // A smaller budget a minute takes the visitors' share down with it unless one is given.
              perVisitorPerMinute:
                change.perVisitorPerMinute ??
                Math.min(key.publishable.perVisitorPerMinute, change.perMinute ?? key.publishable.perMinute),
            }),
          }
        : {}),
    };
    const updated = await this.#tokens.updateKey(principal.userId, tokenId, next, now);
    if (!updated) throw new NotFoundError('There is no such API key.');
    return updated;
  }

  /** The scope asked for, normalised and within the account's limits, or InvalidInputError naming the field. */
  #scope(request: PublishableRequest): PublishableScope {
    if (request.origins.length < 1 || request.origins.length > MAX_ORIGINS) {
      throw new InvalidInputError(`A publishable key lists 1 to ${MAX_ORIGINS} origins.`, {
        name: 'origins',
        reason: `must list 1 to ${MAX_ORIGINS} origins`,
      });
    }
    const origins: string[] = [];
    for (const [i, text] of request.origins.entries()) {
      const parsed = parseOriginPattern(text);
      if (!parsed.ok) {
        throw new InvalidInputError(`The origin ${JSON.stringify(text)} ${parsed.reason}.`, {
          name: `origins/${i}`,
          reason: parsed.reason,
        });
      }
      if (!origins.includes(parsed.pattern)) origins.push(parsed.pattern);
    }
    const limits = this.#limits;
    const perMinute = request.perMinute ?? limits.perMinute;
    const perDay = request.perDay ?? limits.perDay;
    const perVisitor = request.perVisitorPerMinute ?? Math.min(DEFAULT_VISITOR_SEARCHES_PER_MINUTE, perMinute);
    within('searches_per_minute', perMinute, limits.perMinute, 'the account may search a minute');
    within('searches_per_day', perDay, limits.perDay, 'one publishable key may search in a day on this server');
    within('visitor_searches_per_minute', perVisitor, perMinute, 'the key may search a minute (searches_per_minute)');
    return { origins, perMinute, perDay, perVisitorPerMinute: perVisitor };
  }
}

function within(name: string, value: number, max: number, what: string): void {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    const reason = `must be 1 to ${max}, what ${what}`;
    throw new InvalidInputError(`${name} ${reason}.`, { name, reason });
  }
}
