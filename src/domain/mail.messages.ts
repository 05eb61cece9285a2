// The words of each e-mail. Plain text: every mail client shows it, and a link in it is the
// only thing to click. Each says why it came, so that one nobody asked for can be ignored.
import type { MailMessage } from './ports.ts';

const SIGNATURE = '\n-- \nSchool Search API\n';
const IGNORE = 'If you did not ask for this, ignore this e-mail: nothing changes.';

export function confirmationMail(to: string, link: string, hours: number): MailMessage {
  return {
    to,
    subject: 'Confirm your School Search API account',
    text:
      `Someone (we hope you) signed up for a School Search API account with this address.\n\n` +
      `To confirm it, open this link within ${hours} hours and enter the password you chose:\n\n${link}\n\n` +
      `${IGNORE} No account is made until the link is used.\n${SIGNATURE}`,
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

export function resetMail(to: string, link: string, minutes: number): MailMessage {
  return {
    to,
    subject: 'Set a new password for your School Search API account',
    text:
      `Someone (we hope you) asked to set a new password for the School Search API account of this address.\n\n` +
      `Open this link within ${minutes} minutes to choose it:\n\n${link}\n\n` +
      `Setting it signs out every session and revokes every API key of the account. ${IGNORE}\n${SIGNATURE}`,
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

export function invitationMail(to: string, link: string, days: number): MailMessage {
  return {
    to,
    subject: 'You are invited to the School Search API',
    text:
      `The operator of a School Search API server invites you to make an account with this address.\n\n` +
      `Open this link within ${days} days and choose a password:\n\n${link}\n\n${IGNORE}\n${SIGNATURE}`,
  };
}
