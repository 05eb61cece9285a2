import { EdgeError } from './edge.error.ts';
import { PROBLEMS } from './problems.ts';

/**
 * A limiter refused the request (src/http/middleware/rate-limit.ts). The RateLimit headers, where
 * the limiter sends them, are already set; Retry-After is set here, as a quiet limiter (one of
 * an address's from every client) sets none of its own.
 */
export class RateLimitedError extends EdgeError {
  override readonly name: string = 'RateLimitedError';
  /** The quota used up, as the metrics name it. */
  readonly policy: string;
  readonly retryAfterSeconds: number;

  constructor(policy: string, retryAfterSeconds: number) {
    super(PROBLEMS.rateLimited, `Too many requests (${policy} quota). Retry after ${retryAfterSeconds} seconds.`, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
    this.policy = policy;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
