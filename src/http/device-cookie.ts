// The cookie that carries a device's proof of a recent login (src/domain/accounts/device-proof.ts): set by
// a successful POST /v1/auth (whose body has the proof too, for clients without cookies), read
// by the login rate limits (middleware/rate-limit.ts). It authenticates nothing: tokens still
// travel in the Authorization header only.
import type { Request } from 'express';
import { DEVICE_PROOF_DAYS } from '../domain/accounts/device-proof.ts';

export const DEVICE_COOKIE = 'ss_device';

/**
 * Sent back to POST /v1/auth alone (Path), never readable by a script (HttpOnly) nor sent from
 * another site (SameSite=Strict). Secure: browsers keep it over https, and on localhost.
 */
export function deviceCookieHeader(proof: string): string {
  return `${DEVICE_COOKIE}=${proof}; Path=/v1/auth; Max-Age=${DEVICE_PROOF_DAYS * 86_400}; HttpOnly; Secure; SameSite=Strict`;
}

/**
 * The proof the request carries, if any: its Cookie header's (the first, when repeated), else
 * the login body's `device_proof`, which clients without a cookie jar (both official clients)
 * send back from their last login's answer.
 */
export function deviceProofOf(req: Request): string | undefined {
  const header = req.headers.cookie;
  for (const part of header?.split(';') ?? []) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === DEVICE_COOKIE) return part.slice(at + 1).trim();
  }
  const body = req.body as { device_proof?: unknown } | undefined;
  return typeof body?.device_proof === 'string' ? body.device_proof : undefined;
}
