// Store ports: what the domain needs from persistence. Adapters live in src/stores/<store>/.
// Every method is async so that network stores (MongoDB) fit the same seam as the embedded one.
import type { HistoryPosition } from './history.cursor.ts';
import type { SchoolKind, SchoolLevel, TypeFilter } from './school.kind.ts';
import type { GeoPoint } from './search/geo.ts';

/** Level, grades, type and tags (school.kind.ts) are each absent when unknown, like the location. */
export interface School extends SchoolKind {
  readonly id: string;
  readonly name: string;
  readonly city: string;
  readonly state: string;
  /** A logo address from the directory, or null when none is known. */
  readonly imageUrl: string | null;
  /**
   * Where the school is, as its directory gives it. Each is absent (not null, not empty) when
   * unknown, so that a catalog of schools without them costs nothing; latitude and longitude
   * (WGS 84 degrees) are both present or both absent.
   */
  readonly address?: string;
  readonly postalCode?: string;
  readonly latitude?: number;
  readonly longitude?: number;
}

/** The location fields of a School, in the order they are written and compared. */
export type SchoolLocation = Pick<School, 'address' | 'postalCode' | 'latitude' | 'longitude'>;

/** A school as a search engine indexes it (src/domain/search/engine.ts). */
export interface CatalogSchool extends School {
  readonly aliases: readonly string[];
  /** 0–100: among equally good matches, the more prominent school comes first (flagship before branch). */
  readonly prominence: number;
}

/**
 * A school as the importer hands it to a store: what the store hands back as its catalog, and
 * the key of the row in its source directory (`nces:010000500870`, `ipeds:166027`), which the
 * store keeps (a later import without one keeps the stored key) but does not hand back yet.
 */
export type SchoolDraft = CatalogSchool & { readonly sourceKey?: string };

export interface ImportCounts {
  readonly inserted: number;
  readonly updated: number;
  readonly unchanged: number;
}

/** A school's whole record (GET /v1/schools/{id}): what a page shows, its other names, where it came from, when it changed. */
export interface SchoolRecord extends School {
  readonly aliases: readonly string[];
  /** The keys of the directory rows it was imported from (`nces:010000500870`); empty when none was given. */
  readonly sourceIds: readonly string[];
  /** When an import last created or changed it. */
  readonly updatedAt: Date;
}

export interface SchoolStore {
  findById(id: string): Promise<School | null>;
  /** The school's whole record, or null when there is no such school. */
  findRecord(id: string): Promise<SchoolRecord | null>;
  count(): Promise<number>;
  /**
   * Inserts or updates schools by id (a school is "updated" when anything about it differs).
   * Idempotent: calling it again with the same schools completes a call that threw and changes
   * nothing after one that succeeded. The embedded store is also all or nothing; a store without
   * multi-document transactions (MongoDB) may keep part of a call that threw. A call that
   * changed anything changes the catalog's version. `onProgress` is called with the number of
   * schools written so far.
   */
  upsertMany(schools: readonly SchoolDraft[], onProgress?: (done: number) => void): Promise<ImportCounts>;
  /**
   * What upsertMany would count for these schools against the store as it is now, writing
   * nothing: an import's dry run. A school listed twice counts as upsertMany would count it.
   */
  compareMany(schools: readonly SchoolDraft[]): Promise<ImportCounts>;
  /**
   * The catalog's version: it changes whenever an import changes the catalog, from any process.
   * Cheap (search engines ask for it every second). Only equality of two versions means anything.
   */
  catalogVersion(): Promise<string>;
  /**
   * The whole catalog as it is at one version, even while an import writes: its schools in
   * batches, then that version (CatalogChunk). A batch is read when the consumer asks for the
   * next one, so that neither side need hold more than a batch: a search engine builds its
   * index from a million schools without holding them (docs/search.md). Stopping early (a
   * `break`) closes the read.
   */
  readCatalog(): AsyncIterable<CatalogChunk>;
}

/**
 * What readCatalog yields: `schools`, a batch; `restart`, the schools so far are void and come
 * again from the first (a store that cannot read at one version in one pass, MongoDB without a
 * transaction, saw an import change the catalog while it read); `version`, the last: the
 * version the schools since the last `restart` are exactly.
 */
export type CatalogChunk =
  | { readonly kind: 'schools'; readonly schools: readonly CatalogSchool[] }
  | { readonly kind: 'restart' }
  | { readonly kind: 'version'; readonly version: string };

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

/** `session`: issued by a login or a rotation. `key`: a named API key, made by its user for a program. */
export type TokenKind = 'session' | 'key';

export interface TokenRecord {
  readonly id: string;
  readonly userId: string;
  readonly kind: TokenKind;
  /** The API key's name; null for a session token. */
  readonly name: string | null;
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

export interface RequestRecord {
  readonly id: string;
  readonly userId: string;
  readonly requestMade: string;
  readonly timeMade: Date;
  readonly cost: number;
  /** Where a search looked: absent on records stored before it was kept (and on any non-search). */
  readonly search?: RecordedSearch;
}

/**
 * What tells two searches with the same words apart in the history (trequestmade holds the
 * words): every parameter it gave besides them, offset and limit as used (defaults included).
 * The filters are absent when the search had none, and on records stored before they were kept.
 */
export interface RecordedSearch {
  readonly stateCode?: string;
  readonly offset: number;
  readonly limit: number;
  readonly levels?: readonly SchoolLevel[];
  readonly types?: readonly TypeFilter[];
  readonly near?: GeoPoint;
  readonly radiusKm?: number;
}

export interface Usage {
  readonly count: number;
  readonly totalCost: number;
  readonly lastAt: Date | null;
}

/** One calendar day (UTC) of a user's metered requests. */
export interface DayUsage {
  /** YYYY-MM-DD. */
  readonly day: string;
  readonly count: number;
  readonly cost: number;
}

/** Which page of a user's history, newest first. */
export interface HistoryQuery {
  /** Records skipped after `after` (or from the newest). */
  readonly offset: number;
  readonly limit: number;
  /** The page starts right after this record (keyset paging: the page's cost does not grow with its depth). */
  readonly after?: HistoryPosition | undefined;
  /** The first UTC day (YYYY-MM-DD) kept by the retention policy: older records are neither listed nor counted. Default: all. */
  readonly keptFrom?: string | undefined;
}

export interface HistoryPage {
  /** How many records the user has (from `keptFrom` on): read from the counters, not counted. */
  readonly total: number;
  readonly records: RequestRecord[];
  /** True when older records follow the page. */
  readonly more: boolean;
}

/**
 * Request records and the per-user counters kept with them (totals, and per UTC day), so that
 * no read scans a user's whole history. Counters equal the records: a store writes them in the
 * record's transaction, or (MongoDB, without one) counts each record idempotently and finishes,
 * at the next read, the counting of a record whose append stopped half-way.
 */
export interface RequestLog {
  /**
   * Resolves only once the record is durable: a crash after it cannot lose the record. With
   * `madeWith` (a token's id), the record is stored only if that token is live when it commits
   * (not revoked, expiring after the record's timeMade, and holding for its account's password
   * as it is then: credentials.ts); otherwise nothing is stored and append
   * rejects with UnauthenticatedError('revoked'): a request authenticated by a remembered token
   * (TokenStore.remembered) is metered and answered only if its token still holds.
   */
  append(record: RequestRecord, madeWith?: string): Promise<void>;
  /** A page of the user's records, newest first (equal times: greater id first), read by an index in O(offset + limit). */
  list(userId: string, query: HistoryQuery): Promise<HistoryPage>;
  usage(userId: string): Promise<Usage>;
  /** The user's records counted per UTC day from `from` to `to` (YYYY-MM-DD, both included), oldest first; days without one are left out. */
  usageByDay(userId: string, from: string, to: string): Promise<DayUsage[]>;
  /**
   * Deletes every user's records of UTC days before `day` (the retention policy); returns how
   * many. The usage counters stay: totals and the per-day chart still count what was made.
   * Idempotent, and safe to run from every instance at once.
   */
  purgeBefore(day: string): Promise<number>;
}

/** A window's count, as a quota sees it. */
export interface QuotaWindow {
  readonly hits: number;
  /** When the window ends (and the count starts again from 0). */
  readonly resetAt: Date;
}

/**
 * The rate limits' counters, shared by every API process on the store: one window per key,
 * starting at its first hit and lasting `windowMs`. Every call is one atomic step on the store.
 */
export interface QuotaCounter {
  /** Counts a hit in the key's window (a new one when there is none, or it is over); the window after it. */
  hit(key: string, windowMs: number): Promise<QuotaWindow>;
  /** Takes a hit back (a request that turned out not to count), when its window is still on. */
  unhit(key: string): Promise<void>;
  /** The key's window now, undefined when none is on. */
  get(key: string): Promise<QuotaWindow | undefined>;
  reset(key: string): Promise<void>;
}

/** One store: every port, plus what operators need. */
export interface Store {
  readonly kind: string;
  readonly schools: SchoolStore;
  readonly users: UserStore;
  readonly tokens: TokenStore;
  readonly requests: RequestLog;
  /** Sign-up, reset and invitation links (src/domain/signup.service.ts, src/domain/reset.service.ts). */
  readonly links: LinkStore;
  /** Mail not yet delivered, retried until it is (src/domain/mail.service.ts). */
  readonly outbox: MailOutbox;
  /** Undefined when no other process can share the store (the embedded store in memory): each process counts alone. */
  readonly quotas: QuotaCounter | undefined;
  /** Throws StoreUnavailableError when the store cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
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

/**
 * An e-mail as the domain writes it. With `link`, the text holds LINK_PLACEHOLDER (link.ts) where
 * the link goes: the link's token is derived from its id with a server-side secret only when
 * the message is sent, so that neither the outbox nor any copy of the store ever holds it.
 */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly link?: MailLink;
}

/** Where a message's link goes: `url` + the token derived from link `id` with secret `secretId`. */
export interface MailLink {
  readonly id: string;
  readonly url: string;
  readonly secretId: string;
}

/** A message as the mail system gets it: whole, with the id its Message-ID is made of (the same at every attempt). */
export interface OutgoingMail {
  readonly id: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/** A message in the outbox: kept until delivered, retried with growing waits, dropped at `discardAfter`. */
export interface OutboxEntry extends MailMessage {
  readonly id: string;
  readonly createdAt: Date;
  /** After this the message is useless (its link expired): it is dropped, not sent. */
  readonly discardAfter: Date;
  /** Delivery attempts made (and failed) so far. */
  readonly attempts: number;
  /** When the next attempt is due; an attempt under way holds the entry until then (a lease). */
  readonly nextAttemptAt: Date;
  readonly lastError: string | null;
}

export interface MailOutbox {
  /** Stores the message, held by the caller (who tries it at once) until `heldUntil`. */
  enqueue(entry: OutboxEntry): Promise<void>;
  /**
   * Up to `limit` entries due at `now` (nextAttemptAt <= now), oldest due first, each held for
   * whoever claimed it until `heldUntil`: another claim before then does not get it.
   */
  claimDue(now: Date, heldUntil: Date, limit: number): Promise<OutboxEntry[]>;
  /** The message went out: it is deleted. */
  delivered(id: string): Promise<void>;
  /** The message can never go out (its link's secret is not configured anymore): it is deleted. */
  drop(id: string): Promise<void>;
  /** An attempt failed: counted, and the entry is due again at `nextAttemptAt`. */
  failed(id: string, error: string, nextAttemptAt: Date): Promise<void>;
  /** Deletes entries whose discardAfter is before `now` (their links are dead); returns them, for the log. */
  discardExpired(now: Date): Promise<OutboxEntry[]>;
}

/** The mail port: hands one message to the mail system (SMTP, or the log in development). Throws when it cannot. */
export interface Mailer {
  send(message: OutgoingMail): Promise<void>;
  /** Lets go of what the mailer holds open (an SMTP pool), so that a command can exit. */
  close?(): void;
}

export interface Clock {
  now(): Date;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** True when the hash was made with other settings than this hasher's. */
  needsRehash(hash: string): boolean;
}
