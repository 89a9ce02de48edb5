// Error code -> HTTP status, and the two legacy error bodies. The one table every door uses.
import { AppError, type ErrorCode } from '../errors.js';

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
 * (decisions.md 3). Payments interface: interface.md 7's { error: { message } }, with the code added
 * beside the message (an addition clients of the contract can ignore).
 */
export function legacyErrorBody(surface: Surface, code: ErrorCode, message: string): unknown {
  if (surface === 'payments') return { error: { code, message } };
  return { valid: false, message, error: { code, message } };
}

/**
 * An AppError that refuses a /graphql request before it runs, given the status of this table: Apollo
 * answers with extensions.http.status (and strips it from the body), else 500. An error that already
 * names its status (RATE_LIMITED, SERVICE_UNAVAILABLE) is kept as it is.
 */
export function withHttpStatus(error: unknown): unknown {
  if (!(error instanceof AppError) || error.extensions.http !== undefined) return error;
  const { code: _code, ...details } = error.extensions;
  return new AppError(error.code, error.message, { ...details, http: { status: HTTP_STATUS[error.code] } });
}
