// The write concern of every write that ends or grants access: a revocation, a password change,
// a link's use. Acknowledged by a majority, a rollback after a failover cannot undo it (bring a
// revoked token or a used link back), whatever default write concern the cluster has.
import { OPERATION_TIME_LIMIT_MS } from './limits.ts';

/**
 * Bounded like every write of a request (limits.ts): a majority that cannot be reached in 10 s is
 * a 503 (a write concern error; the write may stand, and each of these is safe to ask again), not
 * a wait held to the socket timeout and retried (issue 43: every call a request makes has a deadline).
 */
export const MAJORITY = { writeConcern: { w: 'majority', wtimeoutMS: OPERATION_TIME_LIMIT_MS } } as const;
