// A device's proof of a recent successful login (OWASP's "device cookie"): the login answer hands
// it out, the device presents it with later logins, and the all-clients ceiling on failed logins
// for an e-mail (rate-limit.ts) then does not lock that device out. It proves one thing only —
// "this device logged in as this user, at this time" — and authenticates nothing.
//
// `v1.<issued ms>.<mac>`, the MAC an HMAC-SHA256 of the user id and time keyed by a digest of the
// user's password hash: no secret to configure or share between instances (the store has the
// hash), unforgeable without the hash, and void as soon as the password changes.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** How long a device is recognised after a login: a month, as a person's devices come back. */
export const DEVICE_PROOF_DAYS = 30;
const DAY_MS = 86_400_000;

function mac(userId: string, issuedMs: number, passwordHash: string): Buffer {
  const key = createHash('sha256').update(`school-search device proof\0${passwordHash}`).digest();
  return createHmac('sha256', key).update(`${userId}\0${issuedMs}`).digest();
}

export function deviceProof(userId: string, passwordHash: string, issued: Date): string {
  const ms = issued.getTime();
  return `v1.${ms}.${mac(userId, ms, passwordHash).toString('base64url')}`;
}

/** Whether `proof` was issued to this user (with this password) within DEVICE_PROOF_DAYS of `now`. */
export function provesDevice(proof: string, userId: string, passwordHash: string, now: Date): boolean {
  const match = /^v1\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(proof);
  if (!match) return false;
  const issuedMs = Number(match[1]);
  const age = now.getTime() - issuedMs;
  if (age < 0 || age > DEVICE_PROOF_DAYS * DAY_MS) return false;
  const given = Buffer.from(match[2]!, 'base64url');
  return given.length === 32 && timingSafeEqual(given, mac(userId, issuedMs, passwordHash));
}
