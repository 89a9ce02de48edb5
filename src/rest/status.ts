// Error code -> HTTP status, and the two legacy error bodies. The one table every door uses.
import type { ErrorCode } from '../errors.js';

export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  MISSING_API_KEY: 401,
  INVALID_API_KEY: 401,
  INVALID_ACCESS_TOKEN: 401,
  FORBIDDEN: 403,
  MISSING_QUERY_PARAMETER: 400,
  INVALID_QUERY_PARAMETER: 400,
  INVALID_ARGUMENT: 400,
  INVALID_NOTIFICATION: 400,
  RESOURCE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INVALID_REQUEST_BODY: 400,
  INVALID_PAYMENT_AMOUNT: 400,
  CURRENCY_MISMATCH: 400,
  AMOUNT_EXCEEDS_BALANCE: 400,
  IDEMPOTENCY_CONFLICT: 409,
  RESPONSE_TOO_LARGE: 400,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

/** Which legacy interface a route belongs to; each has its own error body. */
export type Surface = 'partner' | 'payments';

/**
 * Partner query interface: the top-level valid/message keep clients that only read those working
 * (decisions.md 3). Payments interface: { error: { message } } (interface.md 7).
 */
export function legacyErrorBody(surface: Surface, code: ErrorCode, message: string): unknown {
  if (surface === 'payments') return { error: { message } };
  return { valid: false, message, error: { code, message } };
}
