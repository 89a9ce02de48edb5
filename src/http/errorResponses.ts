// The one renderer of error answers, for every door: GraphQL's { errors } on /graphql, the partner and
// payments interfaces' legacy bodies elsewhere, each status from the taxonomy's table (HTTP_STATUS).
// The REST shim, the operations router and the /graphql door's transport failures all answer through it,
// and every door's 405 is written here once (allowOnly).
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { AppError, type ErrorCode, HTTP_STATUS, isErrorCode, maskUnexpectedError } from '../kernel/errors.js';

/** Which legacy interface a route belongs to; each has its own error body. */
export type LegacyDoor = 'partner' | 'payments';

/**
 * Where a request came in: each door has its own error body (the device door's and the report files'
 * take the payments interface's shape).
 */
export type Door = LegacyDoor | 'graphql' | 'devices' | 'reports';

/** What the renderer reads of an error: an AppError, or an error as Apollo formatted it. */
interface RenderedError {
  message: string;
  extensions?: Readonly<Record<string, unknown>>;
}

/**
 * Partner query interface: the top-level valid/message keep clients that only read those working
 * (decisions.md 3). Payments interface: the { error: { message } } of
 * docs/legacy-contract.md#payments-error-body, with the code added beside the message (an addition clients of
 * the contract can ignore).
 */
function legacyErrorBody(door: LegacyDoor, code: ErrorCode, message: string): unknown {
  if (door === 'payments') return { error: { code, message } };
  return { valid: false, message, error: { code, message } };
}

/** The legacy interface a path belongs to (the partner body for /healthz, /metrics and unknown paths). */
const legacyDoorOf = (path: string): LegacyDoor => (path.startsWith('/payments/') ? 'payments' : 'partner');

/** /graphql (labelled by the operations router, subpaths too), the device door, the report files, else the legacy interface of the path. */
export function doorOf(req: Request, res: Response): Door {
  if (res.locals.route === '/graphql') return 'graphql';
  if (req.originalUrl.startsWith('/devices/')) return 'devices';
  return req.originalUrl.startsWith('/reports/') ? 'reports' : legacyDoorOf(req.originalUrl);
}

/**
 * Answers `error` in the body of `door`, with the status of its code. A code outside the taxonomy
 * (only a bug in a handwritten operation can bring one) is masked as INTERNAL_SERVER_ERROR. A
 * RATE_LIMITED answer says when a request will be accepted again (errors.ts rateLimited).
 */
export function sendError(res: Response, door: Door, error: RenderedError): void {
  const { code, http: _http, ...details } = error.extensions ?? {};
  if (!isErrorCode(code)) {
    sendError(res, door, { message: 'internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    return;
  }
  if (code === 'RATE_LIMITED' && typeof details.retryAfter === 'number') {
    res.set('Retry-After', String(details.retryAfter));
  }
  res.status(HTTP_STATUS[code]).json(errorBody(door, code, error.message, details));
}

/** The body of an error answer at `door`: GraphQL's { errors }, or the legacy interface's body. */
export function errorBody(
  door: Door,
  code: ErrorCode,
  message: string,
  details: Readonly<Record<string, unknown>> = {},
): unknown {
  if (door === 'graphql') return { errors: [{ message, extensions: { code, ...details } }] };
  // The device door and the report files are no legacy interface; their body takes the payments interface's shape.
  if (door === 'devices' || door === 'reports') return { error: { code, message } };
  return legacyErrorBody(door, code, message);
}

/** An error raised in front of the doors or at the transport (414, 405, an unreadable body), in its door's body. */
export function sendDoorError(req: Request, res: Response, error: RenderedError): void {
  sendError(res, doorOf(req, res), error);
}

/** What a read-only endpoint takes: express answers HEAD with its GET handler. */
export const READ_METHODS = ['GET', 'HEAD'] as const;

/**
 * The one 405 of every door: passes the `methods` `path` takes; any other is 405 METHOD_NOT_ALLOWED,
 * with Allow naming them, in the body of the door the path belongs to.
 */
export function allowOnly(path: string, methods: readonly string[]): RequestHandler {
  return (req, res, next) => {
    if (methods.includes(req.method)) return next();
    res.set('Allow', methods.join(', '));
    const message = `${path} accepts ${methods.join(' or ')} only, not ${req.method}`;
    sendDoorError(req, res, new AppError('METHOD_NOT_ALLOWED', message));
  };
}

/** Masks an unexpected error (500, or 503 when the database is unreachable) and logs its detail. */
export function sendUnexpectedError(
  res: Response,
  door: Door,
  error: unknown,
  deps: { logger: Pick<Logger, 'error'> },
  where: string,
): void {
  const { formatted, errorId } = maskUnexpectedError({ message: 'unexpected' }, error);
  deps.logger.error({ err: error, errorId, where, requestId: res.locals.requestId }, 'unexpected error');
  sendError(res, door, formatted);
}
