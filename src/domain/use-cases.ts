// What the domain offers the outside world: one service per kind of work. The HTTP handlers and
// the command line call these; the composition root (src/composition/services.ts) builds them on a store.
import type { AccountService } from './metering/account.service.ts';
import type { AuthService } from './accounts/auth.service.ts';
import type { CatalogService } from './catalog/catalog.service.ts';
import type { HealthService } from './health.service.ts';
import type { KeyService } from './accounts/keys.service.ts';
import type { MailService } from './mail/mail.service.ts';
import type { PasswordResetService } from './accounts/reset.service.ts';
import type { SignUpService } from './accounts/signup.service.ts';
import type { SearchService } from './search/search.service.ts';

export interface UseCases {
  readonly auth: AuthService;
  readonly keys: KeyService;
  readonly search: SearchService;
  readonly account: AccountService;
  readonly catalog: CatalogService;
  readonly health: HealthService;
  readonly signUp: SignUpService;
  readonly passwordReset: PasswordResetService;
  readonly mail: MailService;
}
