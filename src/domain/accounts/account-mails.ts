// The words of each e-mail. Plain text: every mail client shows it, and a link in it is the
// only thing to click. Each says why it came, so that one nobody asked for can be ignored.
import { LINK_PLACEHOLDER } from '../mail/link-token.ts';
import type { MailLink, MailMessage } from '../mail/mail.ports.ts';

const SIGNATURE = '\n-- \nSchool Search API\n';
const IGNORE = 'If you did not ask for this, ignore this e-mail: nothing changes.';

export function confirmationMail(to: string, link: MailLink, hours: number): MailMessage {
  return {
    to,
    subject: 'Confirm your School Search API account',
    text:
      `Someone (we hope you) signed up for a School Search API account with this address.\n\n` +
      `To make the account, open this link within ${hours} hours and choose its password:\n\n${LINK_PLACEHOLDER}\n\n` +
      `${IGNORE} No account is made until the link is used.\n${SIGNATURE}`,
    link,
  };
}

/** Sign-up with an address that has an account: the owner learns of it; the answer to the request is the usual one. */
export function alreadyRegisteredMail(to: string, signInLink: string, forgotLink: string): MailMessage {
  return {
    to,
    subject: 'Your School Search API account',
    text:
      `Someone (we hope you) tried to sign up for a School Search API account with this address, ` +
      `but an account with this address exists already.\n\n` +
      `Sign in: ${signInLink}\n` +
      `Forgot the password? Set a new one: ${forgotLink}\n\n${IGNORE}\n${SIGNATURE}`,
  };
}

export function resetMail(to: string, link: MailLink, minutes: number): MailMessage {
  return {
    to,
    subject: 'Set a new password for your School Search API account',
    text:
      `Someone (we hope you) asked to set a new password for the School Search API account of this address.\n\n` +
      `Open this link within ${minutes} minutes to choose it:\n\n${LINK_PLACEHOLDER}\n\n` +
      `Setting it signs out every session of the account. Its API keys keep working unless you ask for them ` +
      `to be revoked too: do, if someone else may know the old password. If you asked more than once, every ` +
      `e-mail of this last hour holds the same link. ${IGNORE}\n${SIGNATURE}`,
    link,
  };
}

/** A reset asked for an address without an account: the owner learns of it; the answer is the usual one. */
export function noAccountMail(to: string, signUpLink: string | null): MailMessage {
  return {
    to,
    subject: 'Password reset for the School Search API',
    text:
      `Someone (we hope you) asked to set a new password for a School Search API account with this address, ` +
      `but no account uses this address.\n\n` +
      (signUpLink
        ? `To make one, sign up here: ${signUpLink}\n\n`
        : 'Accounts on this server are made by its operator: ask them for an invitation.\n\n') +
      `${IGNORE}\n${SIGNATURE}`,
  };
}

export function invitationMail(to: string, link: MailLink, days: number): MailMessage {
  return {
    to,
    subject: 'You are invited to the School Search API',
    text:
      `The operator of a School Search API server invites you to make an account with this address.\n\n` +
      `Open this link within ${days} days and choose a password:\n\n${LINK_PLACEHOLDER}\n\n${IGNORE}\n${SIGNATURE}`,
    link,
  };
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const minute = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** After a password change or reset: what it did, and the account's API keys as they are now. */
export function passwordChangedMail(
  to: string,
  change: {
    how: 'change' | 'reset';
    at: Date;
    keys: readonly { name: string; createdAt: Date; revoked: boolean }[];
  },
  dashboardUrl: string,
): MailMessage {
  const what = change.how === 'reset' ? 'was reset with a link from this mailbox' : 'was changed';
  const live = change.keys.filter((k) => !k.revoked);
  const revoked = change.keys.filter((k) => k.revoked);
  const list = (keys: typeof change.keys) => keys.map((k) => `  - "${k.name}", created ${day(k.createdAt)}`).join('\n');
  const keys =
    change.keys.length === 0
      ? 'The account has no API keys.\n\n'
      : (live.length > 0 ? `These API keys still work:\n${list(live)}\n\n` : '') +
        (revoked.length > 0 ? `These API keys were revoked with it:\n${list(revoked)}\n\n` : '');
  return {
    to,
    subject: 'The password of your School Search API account changed',
    text:
      `The password of the School Search API account of this address ${what} at ${minute(change.at)}. ` +
      `Every other session of the account was signed out.\n\n${keys}` +
      `If you did not do this, reset the password now (${dashboardUrl}#forgot) and revoke every API key ` +
      `you do not know in the dashboard (${dashboardUrl}#keys).\n${SIGNATURE}`,
  };
}

/** A new API key: the owner hears of every one, so that a key made by someone else does not go unnoticed. */
export function keyCreatedMail(
  to: string,
  key: { name: string; createdAt: Date; expiresAt: Date; hint: string },
  dashboardUrl: string,
): MailMessage {
  return {
    to,
    subject: 'A new API key for your School Search API account',
    text:
      `A new API key was created for the School Search API account of this address at ${minute(key.createdAt)}:\n\n` +
      `  "${key.name}" (${key.hint}…), valid until ${day(key.expiresAt)}\n\n` +
      `If you did not create it, revoke it in the dashboard (${dashboardUrl}#keys) and change the password: ` +
      `whoever made it knows it.\n${SIGNATURE}`,
  };
}
