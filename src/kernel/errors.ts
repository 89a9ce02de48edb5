// The one error taxonomy clients may see. Every error a resolver raises on purpose is an AppError
// with one of these stable codes; anything else is masked (see maskUnexpectedError) so that no stack
// trace, SQL text or key reaches a response. HTTP_STATUS below gives each code its HTTP status; the doors
// render the answers (src/http/errorResponses.ts).
import { randomUUID } from 'node:crypto';
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { jsonFault, notValidJson } from './losslessJson.js';

export const ERROR_CODES = [
  'MISSING_API_KEY',
  'INVALID_API_KEY',
  'INVALID_ACCESS_TOKEN',
  'FORBIDDEN',
  'MISSING_QUERY_PARAMETER',
  'INVALID_QUERY_PARAMETER',
  'INVALID_ARGUMENT',
  'INVALID_NOTIFICATION',
  'RESOURCE_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'URI_TOO_LONG',
  'UNSUPPORTED_MEDIA_TYPE',
  'INVALID_REQUEST_BODY',
  'REQUEST_TOO_LARGE',
  'INVALID_PAYMENT_AMOUNT',
  'CURRENCY_MISMATCH',
  'AMOUNT_EXCEEDS_BALANCE',
  'AMOUNT_NOT_AN_OPTION',
  'IDEMPOTENCY_CONFLICT',
  'INVALID_PARTNER_SETTINGS',
  'SANDBOX_CLOCK_BACKWARDS',
  'PAYMENT_REFERENCE_NOT_FOUND',
  'PAYMENT_REFERENCE_ALREADY_PAID',
  'PAYMENT_REFERENCE_EXPIRED',
  'AMOUNT_MISMATCH',
  'RELEASE_NOT_ALLOWED',
  'TOO_MANY_PENDING_COMMANDS',
  'PAYMENT_ALREADY_REVERSED',
  'REVERSAL_WINDOW_CLOSED',
  'FINANCE_ORDER_CLOSED',
  'FINANCE_ORDER_PAID_OFF',
  'TOO_MANY_REPORT_RUNS',
  'REPORT_FILE_EXPIRED',
  'REPORT_LINK_EXPIRED',
  'REPORT_LINK_INVALID',
  'INVALID_DEVICE_CREDENTIAL',
  'DEVICE_MISMATCH',
  'RESPONSE_TOO_LARGE',
  'SUBSCRIPTION_NEEDS_WEBSOCKET',
  'INTROSPECTION_DISABLED',
  'DOCUMENT_NOT_TRUSTED',
  'RATE_LIMITED',
  'INTERNAL_SERVER_ERROR',
  'SERVICE_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/**
 * Error code -> HTTP status: the one table. The legacy doors answer every error with it; /graphql
 * answers with it a request refused as a whole (withHttpStatus), while a field's error leaves a 200.
 */
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
  REQUEST_TOO_LARGE: 413,
  INVALID_PAYMENT_AMOUNT: 400,
  CURRENCY_MISMATCH: 400,
  AMOUNT_EXCEEDS_BALANCE: 400,
  AMOUNT_NOT_AN_OPTION: 400,
  IDEMPOTENCY_CONFLICT: 409,
  INVALID_PARTNER_SETTINGS: 400,
  SANDBOX_CLOCK_BACKWARDS: 400,
  PAYMENT_REFERENCE_NOT_FOUND: 404,
  PAYMENT_REFERENCE_ALREADY_PAID: 409,
  // 409 like ALREADY_PAID, not 410: the reference's state refuses the payment; the endpoint is not gone (decisions.md 17).
  PAYMENT_REFERENCE_EXPIRED: 409,
  // 400 like every other refused amount.
  AMOUNT_MISMATCH: 400,
  // 409 like PAYMENT_REFERENCE_ALREADY_PAID: the order's state refuses the command (decisions.md 20).
  RELEASE_NOT_ALLOWED: 409,
  // 409 too: the device's state (its waiting commands) refuses another (decisions.md 34).
  TOO_MANY_PENDING_COMMANDS: 409,
  // Corrections (decisions.md 44): the payment's or the order's state refuses the change (409); a window
  // that has closed is the request's fault, as a refused amount is (400).
  PAYMENT_ALREADY_REVERSED: 409,
  REVERSAL_WINDOW_CLOSED: 400,
  FINANCE_ORDER_CLOSED: 409,
  FINANCE_ORDER_PAID_OFF: 409,
  TOO_MANY_REPORT_RUNS: 409,
  REPORT_FILE_EXPIRED: 410,
  REPORT_LINK_EXPIRED: 403,
  REPORT_LINK_INVALID: 403,
  // The device door (decisions.md 19): no credential or a bad one, and a device that is not the credential's.
  INVALID_DEVICE_CREDENTIAL: 401,
  DEVICE_MISMATCH: 403,
  RESPONSE_TOO_LARGE: 400,
  SUBSCRIPTION_NEEDS_WEBSOCKET: 400,
  INTROSPECTION_DISABLED: 400,
  // The trusted-documents mode (decisions.md 33): this caller may run only the manifest's documents.
  DOCUMENT_NOT_TRUSTED: 403,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

export class AppError extends GraphQLError {
  constructor(
    readonly code: ErrorCode,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(message, { extensions: { code, ...details } });
    this.name = 'AppError';
  }
}

export const missingApiKey = (what: string, where: string) =>
  new AppError('MISSING_API_KEY', `${what} is required: send it as the ${where}`);

// One message for unknown, revoked and expired keys alike, so a caller cannot tell which it was.
export const invalidApiKey = () =>
  new AppError('INVALID_API_KEY', 'the API key is not valid (unknown, revoked or expired)');

export const invalidAccessToken = (problem: string) => new AppError('INVALID_ACCESS_TOKEN', problem);

export const invalidRequestBody = (problem: string) =>
  new AppError('INVALID_REQUEST_BODY', `the request body ${problem}`);

/**
 * A JSON body body-parser could not read (its error `type`), as the taxonomy error a client can act
 * on; `limit` is the size it was held to, as body-parser writes it ("64kb"); `body`, the text it failed
 * to parse (body-parser's error carries it), says where it stops being JSON.
 */
export function unreadableBody(type: unknown, limit: string, body?: unknown): AppError {
  if (type === 'entity.parse.failed') {
    return invalidRequestBody(
      notValidJson(typeof body === 'string' ? jsonFault(body, { objectOrArray: true }) : undefined),
    );
  }
  if (type === 'entity.too.large') return new AppError('REQUEST_TOO_LARGE', `the request body is larger than ${limit}`);
  if (type === 'charset.unsupported') return new AppError('UNSUPPORTED_MEDIA_TYPE', 'the request body must be UTF-8');
  if (type === 'encoding.unsupported') {
    return new AppError('UNSUPPORTED_MEDIA_TYPE', 'the request body has an unsupported Content-Encoding');
  }
  return invalidRequestBody('could not be read');
}

export const invalidNotification = (problems: readonly string[]) =>
  new AppError('INVALID_NOTIFICATION', `the notification is not valid: ${problems.join('; ')}`, { problems });

export const forbidden = (message: string) => new AppError('FORBIDDEN', message);

// One message for a missing, malformed, unknown and ended credential alike, as for API keys.
export const invalidDeviceCredential = () =>
  new AppError(
    'INVALID_DEVICE_CREDENTIAL',
    'a valid device credential is required: send it as Authorization: Bearer dvc_... (unknown, ended or missing)',
  );

/** Nothing the caller may see is `resource` with `by` = `value` (by default its id). */
export const notFound = (resource: string, value: string, by = 'id') =>
  new AppError('RESOURCE_NOT_FOUND', `no ${resource} with ${by} ${JSON.stringify(value.slice(0, 64))} was found`, {
    resource,
  });

/**
 * The error refusing a whole /graphql request: Apollo answers with extensions.http (and strips it from
 * the body), else 500, so an AppError gets its status from HTTP_STATUS there, and a Retry-After header
 * when it says when to retry (rateLimited). Anything else is returned as it is.
 */
export function withHttpStatus<E>(error: E): E {
  if (!(error instanceof AppError)) return error;
  const { code: _code, http: _http, ...details } = error.extensions;
  const headers = new Map<string, string>();
  if (typeof details.retryAfter === 'number') headers.set('retry-after', String(details.retryAfter));
  const http = { status: HTTP_STATUS[error.code], headers };
  return new AppError(error.code, error.message, { ...details, http }) as E;
}

export const serviceUnavailable = () =>
  new AppError('SERVICE_UNAVAILABLE', 'the service is temporarily unavailable; retry shortly');

// The vendor's stored schema (stored before a check it now fails) cannot be used: not the vendor's fault
// and not fixable by resending, so 503 until an operator replaces it, then the same request succeeds.
export const paymentVendorUnavailable = (vendor: string, problem: string) =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    `payment vendor "${vendor}" cannot take notifications until an operator replaces its request schema (${problem})`,
  );

/**
 * Too many uses of an action: `reason` says which limit, `retryAfter` (whole seconds until one will be
 * accepted) is in the extensions. Raised in a resolver it is that field's error (decisions.md 36): a
 * 200 on /graphql beside the other fields' data; the legacy doors answer it 429 with Retry-After.
 */
export const rateLimited = (reason: string, retryAfterSeconds: number) =>
  new AppError('RATE_LIMITED', `${reason}; retry after ${retryAfterSeconds} s`, { retryAfter: retryAfterSeconds });

/**
 * Too many requests: a request limit (a key's quota, an address's), which refuses the whole request
 * wherever it is met (createAccessToken's key too: it is the request's credential), so /graphql
 * answers 429 with Retry-After and no data.
 */
export const requestRateLimited = (reason: string, retryAfterSeconds: number) =>
  withHttpStatus(rateLimited(reason, retryAfterSeconds));

export const missingParameter = (name: string) =>
  new AppError('MISSING_QUERY_PARAMETER', `the ${name} query parameter is required`, { parameter: name });

export const invalidParameter = (name: string, problem: string) =>
  new AppError('INVALID_QUERY_PARAMETER', `the ${name} query parameter ${problem}`, { parameter: name });

/**
 * A GraphQL argument that is well-typed but not acceptable. `problem` completes a sentence about the
 * argument, so the REST shim can say the same of the query parameter it maps to.
 */
export const invalidArgument = (argument: string, problem: string) =>
  new AppError('INVALID_ARGUMENT', `the ${argument} argument ${problem}`, { argument, problem });

export const invalidPaymentAmount = (problem: string) =>
  new AppError('INVALID_PAYMENT_AMOUNT', `the payment amount is not acceptable: ${problem}`);

export const currencyMismatch = (given: string, expected: string) =>
  new AppError('CURRENCY_MISMATCH', `the payment is in ${given} but the finance order is in ${expected}`, { expected });

export const amountExceedsBalance = (amount: string, remaining: string, currency: string) =>
  new AppError(
    'AMOUNT_EXCEEDS_BALANCE',
    `the payment of ${amount} ${currency} is more than the remaining balance of ${remaining} ${currency}`,
    {
      remainingBalance: remaining,
    },
  );

/** A fully paid order: any payment would exceed its balance, so nothing can be offered for it. */
export const nothingToPay = (what: string, remaining: string, currency: string) =>
  new AppError(
    'AMOUNT_EXCEEDS_BALANCE',
    `${what} is fully paid: any payment is more than the remaining balance of ${remaining} ${currency}`,
    { remainingBalance: remaining },
  );

/** The partner takes only its repayment options and the full payoff (flexibleAmountEnabled false): `accepted` lists them. */
export const amountNotAnOption = (amount: string, currency: string, accepted: readonly string[]) =>
  new AppError(
    'AMOUNT_NOT_AN_OPTION',
    `the payment of ${amount} ${currency} is not one of the amounts this order takes (${accepted.join(', ')} ${currency}): its partner does not take other amounts`,
    { acceptedAmounts: accepted },
  );

export const idempotencyConflict = (what: string, forNew = 'a new payment') =>
  new AppError('IDEMPOTENCY_CONFLICT', `${what} was already used for a different request; use a new one for ${forNew}`);

/** A code that names no reference the caller may see: unknown, malformed, cancelled, or another partner's. */
export const paymentReferenceNotFound = (code: string) =>
  new AppError(
    'PAYMENT_REFERENCE_NOT_FOUND',
    `no payment reference ${JSON.stringify(code.slice(0, 64))} can be paid or found: it is unknown or was cancelled`,
  );

export const paymentReferenceAlreadyPaid = (code: string) =>
  new AppError('PAYMENT_REFERENCE_ALREADY_PAID', `the payment reference ${code} is already paid`);

/** A RELEASE command for a device whose current order is not paid off (or that has none). */
export const releaseNotAllowed = (deviceId: string, why: string) =>
  new AppError('RELEASE_NOT_ALLOWED', `device ${deviceId} cannot be released: ${why}`);

/** A command for a device already holding `bound` waiting (unacknowledged, unexpired) commands. */
export const tooManyPendingCommands = (deviceId: string, bound: number) =>
  new AppError(
    'TOO_MANY_PENDING_COMMANDS',
    `device ${deviceId} already has ${bound} commands waiting to be acknowledged: wait for its check-ins to carry them, or for them to expire`,
    { limit: bound },
  );

/** A second reversal of one payment (decisions.md 44): the first is named. */
export const paymentAlreadyReversed = (paymentId: string, reversalId: string) =>
  new AppError('PAYMENT_ALREADY_REVERSED', `payment ${paymentId} was already reversed (reversal ${reversalId})`, {
    reversalId,
  });

/** A reversal asked for at or after the payment's reversibleUntil (decisions.md 44). */
export const reversalWindowClosed = (paymentId: string, reversibleUntil: Date) =>
  new AppError(
    'REVERSAL_WINDOW_CLOSED',
    `payment ${paymentId} can no longer be reversed: its reversal window closed at ${reversibleUntil.toISOString()}`,
    { reversibleUntil: reversibleUntil.toISOString() },
  );

/** A payment, a reversal or a close on an order written off or returned (decisions.md 44). */
export const financeOrderClosed = (financeOrderId: string, reason: 'WRITE_OFF' | 'DEVICE_RETURNED', what: string) =>
  new AppError(
    'FINANCE_ORDER_CLOSED',
    `finance order ${financeOrderId} was ${reason === 'WRITE_OFF' ? 'written off' : 'closed when its device was returned'}; ${what}`,
    { closedReason: reason },
  );

/** A close of an order with nothing left to clear (paid off, completing included; decisions.md 44). */
export const financeOrderPaidOff = (financeOrderId: string) =>
  new AppError(
    'FINANCE_ORDER_PAID_OFF',
    `finance order ${financeOrderId} is paid off: nothing remains to clear (a payoff still inside its reversal window is reversed first)`,
  );

/** A report run asked for while the partner already has `bound` waiting (decisions.md 45). */
export const tooManyReportRuns = (bound: number) =>
  new AppError(
    'TOO_MANY_REPORT_RUNS',
    `this partner already has ${bound} report runs waiting: ask again once some have run`,
    { limit: bound },
  );

/** A report's file past REPORT_RETENTION_DAYS: deleted (decisions.md 45). */
export const reportFileExpired = (runId: string, expiredAt: Date) =>
  new AppError('REPORT_FILE_EXPIRED', `report run ${runId}'s file was deleted at ${expiredAt.toISOString()}`, {
    expiredAt: expiredAt.toISOString(),
  });

/** A signed report link past its 15 minutes (real time; decisions.md 45). */
export const reportLinkExpired = () =>
  new AppError('REPORT_LINK_EXPIRED', "this report link has expired: read the run's downloadUrl again for a new one");

/** A report link whose signature does not match its run and expiry: altered, or not made here. */
export const reportLinkInvalid = () =>
  new AppError('REPORT_LINK_INVALID', 'this report link is not valid: its signature does not match');

export const paymentReferenceExpired = (code: string, expiresAt: Date) =>
  new AppError('PAYMENT_REFERENCE_EXPIRED', `the payment reference ${code} expired at ${expiresAt.toISOString()}`, {
    expiresAt: expiresAt.toISOString(),
  });

/**
 * A payment that is not its reference's amount and currency. Neither is named (decisions.md 36): the
 * refusal must not tell whoever quotes a code what it is for.
 */
export const amountMismatch = (code: string) =>
  new AppError(
    'AMOUNT_MISMATCH',
    `the payment reference ${code} is not for this amount and currency: it is paid with exactly the amount and currency it was made for`,
  );

// Codes graphql-js and Apollo give to a malformed GraphQL request: the client's fault, shown as is.
const GRAPHQL_REQUEST_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
]);

/** The most of a client's name (an operationName, a field) a request error repeats back. */
const MAX_ECHOED_NAME_LENGTH = 64;

/**
 * graphql-js and Apollo quote what the client sent in their messages (`Unknown operation named
 * "..."`, `Cannot query field "..."`): anything longer than MAX_ECHOED_NAME_LENGTH is cut, with an
 * ellipsis, so a 10 kB name is not sent back whole.
 */
function shortenEchoedNames(message: string): string {
  return message.replace(/"([^"]*)"/g, (quoted, name: string) =>
    name.length > MAX_ECHOED_NAME_LENGTH ? `"${name.slice(0, MAX_ECHOED_NAME_LENGTH)}…"` : quoted,
  );
}

// Connection-level failures of the database: the service is up, its database is not reachable now.
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
// Connection, resources, operator intervention, and 57014: a statement cancelled, e.g. by
// DATABASE_STATEMENT_TIMEOUT_MS (the database is too slow now: retry later, not a bug); 25006: a write
// reached a server that no longer takes writes (a primary demoted by a failover; decisions.md 29).
const UNAVAILABLE_SQLSTATE_CLASSES = ['08', '53', '57P', '57014', '25006'];

// What node-postgres and knex say, without a SQLSTATE, when a connection died under a query (also
// when knex then fails to ROLLBACK on it: "ROLLBACK - Client has encountered a connection error...").
const CONNECTION_LOST =
  /Knex: Timeout acquiring a connection|Connection terminated|connection is closed|Client has encountered a connection error|Client was closed and is not queryable|not queryable|terminating connection/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (UNAVAILABLE_ERRNOS.has(code)) return true;
    if (UNAVAILABLE_SQLSTATE_CLASSES.some((prefix) => code.startsWith(prefix))) return true;
  }
  return CONNECTION_LOST.test(error.message);
}

/** What a masked error says: the id that finds its detail in the log. */
export const internalErrorMessage = (errorId: string) => `internal server error (error id ${errorId})`;

interface MaskedError {
  formatted: GraphQLFormattedError;
  /** Set when the error was unexpected: the id in the response that points at the log line. */
  errorId?: string;
}

/**
 * A value Postgres refused to store or compare: a data exception (SQLSTATE class 22: a NUL
 * character, a number or date out of range, malformed text) or a row too large for an index (54000).
 * Every SQL statement is the service's own, so such a value can only have come from the request.
 */
function isRejectedValue(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && (code.startsWith('22') || code === '54000');
}

const REJECTED_VALUE_MESSAGE =
  'a value in the request cannot be stored or compared: it is malformed, out of range or too long';

/** The error underneath Apollo's and graphql-js's wrappers (resolver errors, context failures). */
function rootCause(error: unknown): unknown {
  let current = unwrapResolverError(error);
  while (current instanceof GraphQLError && !(current instanceof AppError) && current.originalError) {
    current = current.originalError;
  }
  return current;
}

/**
 * Apollo's formatError: keeps AppErrors and GraphQL request errors, turns a value the database
 * refused into INVALID_ARGUMENT and a lost database into SERVICE_UNAVAILABLE, and replaces anything
 * else with INTERNAL_SERVER_ERROR and an error id.
 */
export function maskUnexpectedError(formatted: GraphQLFormattedError, error: unknown): MaskedError {
  const original = rootCause(error);
  if (original instanceof AppError) return { formatted };
  const code = formatted.extensions?.code;
  if (typeof code === 'string' && GRAPHQL_REQUEST_ERROR_CODES.has(code))
    return { formatted: { ...formatted, message: shortenEchoedNames(formatted.message) } };
  // The backstop behind input validation: a value the database refused is the client's 400, never a 500.
  if (isRejectedValue(original)) {
    return {
      formatted: { message: REJECTED_VALUE_MESSAGE, path: formatted.path, extensions: { code: 'INVALID_ARGUMENT' } },
    };
  }
  const errorId = randomUUID();
  if (isDatabaseUnavailable(original)) {
    return {
      errorId,
      formatted: {
        message: serviceUnavailable().message,
        path: formatted.path,
        extensions: { code: 'SERVICE_UNAVAILABLE', errorId },
      },
    };
  }
  return {
    errorId,
    formatted: {
      message: internalErrorMessage(errorId),
      path: formatted.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR', errorId },
    },
  };
}
