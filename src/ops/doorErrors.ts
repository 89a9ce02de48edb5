// Errors answered in front of the doors (a query string too long, a method a path does not take), in
// the error body of the door the path belongs to: GraphQL's { errors } on /graphql, else the legacy
// body of the path's interface (the partner body for /healthz, /metrics and the like, as for a 404).
import type { Request, RequestHandler, Response } from 'express';
import type { ErrorCode } from '../errors.js';
import { HTTP_STATUS, legacyErrorBody } from '../rest/status.js';

export function sendDoorError(req: Request, res: Response, code: ErrorCode, message: string): void {
  res.status(HTTP_STATUS[code]);
  if (res.locals.route === '/graphql') {
    res.json({ errors: [{ message, extensions: { code } }] });
    return;
  }
  res.json(legacyErrorBody(req.originalUrl.startsWith('/payments/') ? 'payments' : 'partner', code, message));
}

/** What a read-only endpoint takes: express answers HEAD with its GET handler. */
export const READ_METHODS = ['GET', 'HEAD'] as const;

/** Passes the `methods` `path` takes; any other is 405 METHOD_NOT_ALLOWED with Allow naming them. */
export function allowOnly(path: string, methods: readonly string[]): RequestHandler {
  return (req, res, next) => {
    if (methods.includes(req.method)) return next();
    res.set('Allow', methods.join(', '));
    sendDoorError(req, res, 'METHOD_NOT_ALLOWED', `${path} accepts ${methods.join(' or ')} only, not ${req.method}`);
  };
}
