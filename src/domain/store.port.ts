// One store: every slice's ports on one database, plus what operators need.
import type { LinkStore, TokenStore, UserStore } from './accounts/accounts.ports.ts';
import type { SchoolStore } from './catalog/catalog.ports.ts';
import type { MailOutbox } from './mail/mail.ports.ts';
import type { QuotaCounter, RequestLog } from './metering/metering.ports.ts';

/** One store: every port, plus what operators need. */
export interface Store {
  readonly kind: string;
  readonly schools: SchoolStore;
  readonly users: UserStore;
  readonly tokens: TokenStore;
  readonly requests: RequestLog;
  /** Sign-up, reset and invitation links (src/domain/accounts/signup.service.ts, reset.service.ts). */
  readonly links: LinkStore;
  /** Mail not yet delivered, retried until it is (src/domain/mail/mail.service.ts). */
  readonly outbox: MailOutbox;
  /** Undefined when no other process can share the store (the embedded store in memory): each process counts alone. */
  readonly quotas: QuotaCounter | undefined;
  /** Throws StoreUnavailableError when the store cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
