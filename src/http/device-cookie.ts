// The cookie that carries a device's proof of a recent login (src/domain/device.proof.ts): set by
// a successful POST /v1/auth, read by the login rate limits (middleware/rate-limit.ts). It
// authenticates nothing: tokens still travel in the Authorization header only.
import type { Request } from 'express';
import { DEVICE_PROOF_DAYS } from '../domain/device.proof.ts';

export const DEVICE_COOKIE = 'ss_device';

/**
 * Sent back to POST /v1/auth alone (Path), never readable by a script (HttpOnly) nor sent from
 * another site (SameSite=Strict). Secure: browsers keep it over https, and on localhost.
 */
export function deviceCookieHeader(proof: string): string {
  return `${DEVICE_COOKIE}=${proof}; Path=/v1/auth; Max-Age=${DEVICE_PROOF_DAYS * 86_400}; HttpOnly; Secure; SameSite=Strict`;
}

/** The proof the request's Cookie header carries, if any (the first, when repeated). */
export function deviceProofOf(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === DEVICE_COOKIE) return part.slice(at + 1).trim();
  }
  return undefined;
}
