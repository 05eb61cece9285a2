import { createHash } from 'node:crypto';

// Namespace for this project's name-based school ids (a random v4 UUID, fixed forever).
export const SCHOOL_NAMESPACE = '6c1f3a52-9f0e-4d4b-8a57-2f5c0d9e7b31';

/** RFC 9562 UUID version 5: the same name always gives the same id, so re-imports are idempotent. */
export function uuidV5(name: string, namespace: string = SCHOOL_NAMESPACE): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(ns).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
