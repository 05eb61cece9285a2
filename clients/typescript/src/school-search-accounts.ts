// The operations for someone without a token yet: which sign-up the server offers, sign up and
// confirm, accept an invitation, and reset a forgotten password. A class of its own, since
// SchoolSearchClient needs credentials or a token to exist; a confirmed sign-up or an accepted
// invitation returns a token to build one with.
import { createClient, type Client } from '../../../generated/client/index.ts';
import {
  acceptInvitation,
  confirmSignUp,
  getSignUpOptions,
  requestPasswordReset,
  resetPassword,
  signUp,
} from '../../../generated/sdk.gen.ts';
import type * as api from '../../../generated/types.gen.ts';
import { unwrap } from './api-error.ts';

export interface SchoolSearchAccountsOptions {
  /** Where the API is, e.g. `https://api.example.com` (no `/v1`). */
  baseUrl: string;
  fetch?: typeof fetch;
}

export class SchoolSearchAccounts {
  readonly #client: Client;

  constructor(options: SchoolSearchAccountsOptions) {
    this.#client = createClient({ baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
  }

  /** Whether the server takes sign-ups (`open`), invitations only (`invite`) or neither (`off`), and whether reset works. */
  async signUpOptions(): Promise<api.SignUpOptions> {
    return unwrap(await getSignUpOptions({ client: this.#client }));
  }

  /**
   * Mails a confirmation link (or, for an address with an account, a note). The same answer for
   * every address. The password is chosen when the link is used (`confirmSignUp`).
   */
  async signUp(params: {
    email: string;
    /** @deprecated Ignored by the server (checked for its length only): choose the password in `confirmSignUp`. */
    password?: string;
  }): Promise<api.MailAccepted> {
    const body = { email: params.email, ...(params.password === undefined ? {} : { password: params.password }) };
    return unwrap(await signUp({ client: this.#client, body }));
  }

  /**
   * The link's token (after `#confirm/`) and the new account's password (8 to 1024 characters):
   * makes the account, and a session token. (A link mailed before sign-up stopped asking for a
   * password needs the password chosen then.)
   */
  async confirmSignUp(params: { token: string; password: string }): Promise<api.Token> {
    return unwrap(await confirmSignUp({ client: this.#client, body: params }));
  }

  /** The invitation's token (after `#invitation/`) and a new password: makes the account, and a session token. */
  async acceptInvitation(params: { token: string; password: string }): Promise<api.Token> {
    return unwrap(await acceptInvitation({ client: this.#client, body: params }));
  }

  /** Mails a reset link (or, for an address without an account, a note). The same answer for every address. */
  async requestPasswordReset(params: { email: string }): Promise<api.MailAccepted> {
    return unwrap(await requestPasswordReset({ client: this.#client, body: params }));
  }

  /**
   * The link's token (after `#reset/`) and the new password: every session of the account ends.
   * API keys keep working unless `revokeApiKeys` (choose it when someone else may know the old
   * password: they may have made keys with it).
   */
  async resetPassword(params: { token: string; newPassword: string; revokeApiKeys?: boolean }): Promise<void> {
    const body = {
      token: params.token,
      new_password: params.newPassword,
      ...(params.revokeApiKeys ? { revoke_api_keys: true } : {}),
    };
    unwrap(await resetPassword({ client: this.#client, body }));
  }
}
