import { EdgeError } from './edge.error.ts';
import { PROBLEMS } from './problems.ts';

/** A limiter refused the request (src/http/middleware/rate-limit.ts); Retry-After and the RateLimit headers are already set. */
export class RateLimitedError extends EdgeError {
  override readonly name: string = 'RateLimitedError';
  /** The quota used up, as the metrics name it. */
  readonly policy: string;
  readonly retryAfterSeconds: number;

  constructor(policy: string, retryAfterSeconds: number) {
    super(PROBLEMS.rateLimited, `Too many requests (${policy} quota). Retry after ${retryAfterSeconds} seconds.`);
    this.policy = policy;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
