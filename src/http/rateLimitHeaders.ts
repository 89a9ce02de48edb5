// The RateLimit headers of a request charged to a key, written by every door that charges one (the
// REST shim, /graphql) from the quota the request limiter reports.
import type { Response } from 'express';
import type { KeyQuota } from '../pipeline/rateLimits/requestLimits.js';

// The one policy the service advertises: requests per API key (RATE_LIMIT_REQUESTS per RATE_LIMIT_WINDOW_SECONDS).
const RATE_LIMIT_POLICY = '"default"';

/**
 * The API key's quota in the fields of draft-ietf-httpapi-ratelimit-headers (-11): RateLimit-Policy
 * (q: requests per window, w: its seconds) and RateLimit (r: requests left, t: seconds until the
 * window ends). Both doors call it for every request charged to a key, 429 answers included.
 */
export function setRateLimitHeaders(res: Response, quota: KeyQuota): void {
  res.set('RateLimit-Policy', `${RATE_LIMIT_POLICY};q=${quota.limit};w=${quota.windowSeconds}`);
  res.set('RateLimit', `${RATE_LIMIT_POLICY};r=${quota.remaining};t=${quota.resetSeconds}`);
}
