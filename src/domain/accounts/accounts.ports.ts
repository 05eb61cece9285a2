// The accounts' ports and entities: users, their tokens and API keys, the links mailed to them,
// and the password hasher. Adapters live in src/stores/<store>/.
import type { OriginPattern } from './origins.ts';

/** What an account's tokens are checked against (credentials.ts): its password's version, and the first version whose keys hold. */
export interface CredentialState {
  readonly passwordVersion: number;
  readonly keysFromVersion: number;
}

export interface User extends CredentialState {
  readonly id: string;
  /** Folded to lower case by the domain, which also folds the e-mails it looks up. */
  readonly email: string;
  readonly passwordHash: string;
  readonly createdAt: Date;
  // passwordVersion: bumped by every change of the password, a reset included (credentials.ts);
  // 0 for an account that never changed it. keysFromVersion: API keys issued against a version
  // below it are void (a change that asked for the keys to go sets it to the new version).
}

/** A new password for an account (UserStore.setPassword). */
export interface PasswordChangeRecord {
  readonly userId: string;
  readonly passwordHash: string;
  /** Also void every API key of the account (keysFromVersion moves to the new version). */
  readonly revokeKeys: boolean;
  /** The token that asked for the change, which keeps working (null: none, as after a reset). */
  readonly keepTokenId: string | null;
  readonly now: Date;
}

export interface UserStore {
  /** Throws EmailTakenError when the e-mail is in use. */
  create(user: User): Promise<void>;
  findByEmail(email: string): Promise<User | null>;
  findById(id: string): Promise<User | null>;
  /**
   * Replaces the hash of the same password (a login upgrading its cost settings) while the
   * stored hash is still `from`: a compare and set, so that a login that read the old password's
   * hash can never write it back over a new password. False when the hash had changed.
   */
  rehash(userId: string, from: string, to: string): Promise<boolean>;
  /**
   * Sets a new password: the hash, passwordVersion + 1 (and keysFromVersion to it, with
   * revokeKeys), the kept token carried over to the new version and counted as authenticated
   * now, and every other live session of the user revoked (with revokeKeys, every live key too).
   * The version moves first or in one transaction with the rest: from the moment the new hash
   * is visible no session of the old password holds (credentials.ts), whatever becomes of the
   * revocations. Returns the new passwordVersion; an unknown user changes nothing (-1).
   */
  setPassword(change: PasswordChangeRecord): Promise<number>;
}

/**
 * `session`: issued by a login or a rotation. `key`: a named API key, made by its user: secret (for
 * a program: every right of its user) or, with `publishable` set, publishable (for web pages).
 */
export type TokenKind = 'session' | 'key';

/**
 * What a publishable key may do beyond searching and reading schools: nothing. Where it works
 * (origins.ts) and how much it may spend: per minute and per 24 hours for the key, and each
 * visitor's (client address's) share a minute under it.
 */
export interface PublishableScope {
  readonly origins: readonly OriginPattern[];
  readonly perMinute: number;
  readonly perDay: number;
  readonly perVisitorPerMinute: number;
}

export interface TokenRecord {
  readonly id: string;
  readonly userId: string;
  readonly kind: TokenKind;
  /** The API key's name; null for a session token. */
  readonly name: string | null;
  /** A publishable key's scope; absent (or null) on session tokens and secret keys. */
  readonly publishable?: PublishableScope | null;
  /** SHA-256 of the token value, hex. The value itself is never stored. */
  readonly digest: string;
  /** The first characters of the value, to recognise it in a list. */
  readonly hint: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
  /** When the token last authenticated a request (recorded at most once a minute), or null. */
  readonly lastUsedAt: Date | null;
  /** The account's passwordVersion its holder proved (credentials.ts); 0 on tokens issued before versions were kept. */
  readonly passwordVersion: number;
  /**
   * When the password (or a link from the account's mailbox) was given for this token's session:
   * a rotation keeps it, and no session token expires later than the absolute session lifetime
   * after it. A key's is its creation.
   */
  readonly authenticatedAt: Date;
}

/** What PATCH /v1/keys/{tokenId} changes: what is absent stays. */
export interface KeyChange {
  readonly name?: string;
  /** Only for a publishable key (the service checks it). */
  readonly publishable?: PublishableScope;
}

/** A token as authentication reads it: with the credential state of its account now (credentials.ts). */
export interface HeldToken {
  readonly token: TokenRecord;
  readonly holder: CredentialState;
}

export interface TokenStore {
  insert(token: TokenRecord): Promise<void>;
  findByDigest(digest: string): Promise<TokenRecord | null>;
  /** findByDigest, with the account's credential state read in the same step: what authentication checks. */
  findHeld(digest: string): Promise<HeldToken | null>;
  /**
   * The user's tokens that are neither revoked nor expired at `now` (expiresAt > now), newest
   * first: by createdAt, and among equal ones the last inserted first.
   */
  listLive(userId: string, now: Date): Promise<TokenRecord[]>;
  /** Revokes a live token of this user; false when this user has no live token with that id. */
  revoke(userId: string, tokenId: string, now: Date): Promise<boolean>;
  /**
   * Renames a live API key of this user and, for a publishable key, replaces its scope, in one
   * step; the key as it is after it, or null when this user has no live key with that id.
   */
  updateKey(userId: string, tokenId: string, change: KeyChange, now: Date): Promise<TokenRecord | null>;
  /** Revokes `oldId` and inserts `next` in one step. False (and nothing inserted) when `oldId` is not live. */
  rotate(userId: string, oldId: string, next: TokenRecord, now: Date): Promise<boolean>;
  /** Revokes every live token of the user but `keepId`; returns how many. */
  revokeAllExcept(userId: string, keepId: string, now: Date): Promise<number>;
  /**
   * Revokes the user's live *session* tokens beyond the `keep` (≥ 0) newest sessions, in
   * listLive's order; returns how many. API keys are neither counted nor revoked.
   */
  revokeAllButNewest(userId: string, keep: number, now: Date): Promise<number>;
  /**
   * A new session: inserts `token` (a session), then revokes the user's live sessions beyond the
   * `keep` newest as revokeAllButNewest does, in one write where the store can (a login commits
   * once, not twice). Returns how many were revoked; null, and no token left that holds, when
   * the account's passwordVersion is no longer `token.passwordVersion` (the password changed
   * while the login checked it): a store with transactions checks it in the same one, the
   * others read the account again after the insert and revoke the token.
   */
  insertSession(token: TokenRecord, keep: number, now: Date): Promise<number | null>;
  /**
   * Sets the token's lastUsedAt to `now` unless it is already at or after `notBefore`: a
   * conditional write, so that many requests (and instances) at once record one use.
   */
  touch(tokenId: string, now: Date, notBefore: Date): Promise<void>;
  /** Deletes every user's tokens that expired or were revoked strictly before `before`; returns how many. */
  purgeDead(before: Date): Promise<number>;
  /**
   * The token this store found by `digest` before (findHeld), as it remembers it, without
   * reading the store; undefined when it remembers none. It may be stale: another process on the
   * store may have revoked it, or changed the account's password, since. Only for a request
   * whose effect is committed with `RequestLog.append(record, tokenId)`, which then stores
   * nothing and refuses it. A store that remembers nothing (MongoDB's: every read is a round
   * trip anyway) has no such method.
   */
  remembered?(digest: string): HeldToken | undefined;
}

/**
 * What a link in an e-mail is for: `signup` confirms a self-service sign-up (it carries the
 * chosen password's hash: the account is made only when the link is used), `reset` sets a new
 * password, `invite` lets the invited address make its account.
 */
export type LinkPurpose = 'signup' | 'reset' | 'invite';

export interface LinkRecord {
  readonly id: string;
  readonly purpose: LinkPurpose;
  /** Folded to lower case, as a user's. */
  readonly email: string;
  /** `reset`: the account's id; otherwise null (the account does not exist yet). */
  readonly userId: string | null;
  /**
   * `signup` links sent before sign-up stopped asking for a password: the hash of the password
   * chosen then (the account is made with it). Otherwise null: whoever uses the link chooses it.
   */
  readonly passwordHash: string | null;
  /** SHA-256 of the link's token, hex. The token itself is never stored (link.ts derives it). */
  readonly digest: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  /** When it was used (or voided by a later one); a used link never works again. */
  readonly usedAt: Date | null;
  /** How many e-mails carried it (a pending link is sent again rather than a new one minted). */
  readonly mailed: number;
}

export interface LinkStore {
  insert(link: LinkRecord): Promise<void>;
  /** The link with this digest and purpose when it is neither used nor expired at `now` (expiresAt > now), else null. */
  findLive(digest: string, purpose: LinkPurpose, now: Date): Promise<LinkRecord | null>;
  /**
   * Marks the link used, when it is live: one atomic step, so that of two requests at once with
   * the same link exactly one gets it back. Null when it was not live (used, expired, unknown).
   */
  use(digest: string, purpose: LinkPurpose, now: Date): Promise<LinkRecord | null>;
  /** Marks every live link of this e-mail and purpose used (a new password voids the other reset links); returns how many. */
  useAll(email: string, purpose: LinkPurpose, now: Date): Promise<number>;
  /**
   * The newest link of this e-mail and purpose that is live and expires after `expiresAfter`
   * (enough of its life left to be worth sending again), or null.
   */
  findPending(email: string, purpose: LinkPurpose, expiresAfter: Date): Promise<LinkRecord | null>;
  /**
   * Counts one more e-mail of the link, when it has carried fewer than `max`: one atomic step,
   * so that many requests at once never send it more than `max` times. False when it had.
   */
  noteMailed(id: string, max: number): Promise<boolean>;
  /**
   * Makes a link used at `usedAt` live again: what used it failed half-way (the store was
   * unavailable), and the person must be able to try again. False when it changed since.
   */
  release(id: string, usedAt: Date): Promise<boolean>;
  /** Deletes every link that expired or was used strictly before `before`; returns how many. */
  purgeDead(before: Date): Promise<number>;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** True when the hash was made with other settings than this hasher's. */
  needsRehash(hash: string): boolean;
}

/** Who a request is: the account and the token that authenticated it (AuthService.authenticate). */
export interface Principal {
  readonly userId: string;
  readonly tokenId: string;
  /** What authenticated the request: a login's session or a named API key. */
  readonly kind: TokenKind;
  /** Set when a publishable key authenticated it: what it may spend and where. */
  readonly publishable?: PublishableScope;
  /** The page the request came from, once AuthService.admitOrigin let a publishable key's request in. */
  readonly origin?: string;
  /** The password version the token was issued against (credentials.ts): a rotation keeps it. */
  readonly passwordVersion: number;
  /** When the password was given for this session (a key: its creation): a rotation never outlives the absolute lifetime after it. */
  readonly authenticatedAt: Date;
  /**
   * Set when the token was taken as the store remembered it (authenticateMetered), not read
   * now: whatever the request commits must be committed only if the token still holds then
   * (SearchService passes it to RequestLog.append).
   */
  readonly remembered?: true;
}

export interface IssuedToken {
  readonly userId: string;
  readonly tokenId: string;
  readonly value: string;
  readonly expiresIn: number;
  readonly expiresAt: Date;
  /** When the session ends whatever rotation does: no token of it expires later. */
  readonly sessionExpiresAt: Date;
  /** A login's only: the device's proof of it (device-proof.ts), for its later logins. */
  readonly deviceProof?: string;
}

/** `off`: accounts only from the operator's command line; `invite`: also by the operator's invitation links; `open`: also by anyone, confirmed by e-mail. */
export type SignUpMode = 'off' | 'invite' | 'open';
export const SIGNUP_MODES: readonly SignUpMode[] = ['off', 'invite', 'open'];

export interface AccountLinks {
  readonly signUp: SignUpMode;
  /** False when this server sends no mail (production without SMTP_URL): no reset, no sign-up. */
  readonly mail: boolean;
  /** The dashboard's address, e.g. https://api.example.org/dashboard: links in e-mails point into it. */
  readonly dashboardUrl: () => string;
}
