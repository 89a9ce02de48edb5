// The methods a path in front of the doors takes: any other is 405 with Allow, answered by the one
// renderer in the body of the door the path belongs to (http/errorResponses.ts).
import type { RequestHandler } from 'express';
import { sendDoorError } from '../http/errorResponses.js';
import { AppError } from '../kernel/errors.js';

/** What a read-only endpoint takes: express answers HEAD with its GET handler. */
export const READ_METHODS = ['GET', 'HEAD'] as const;

/** Passes the `methods` `path` takes; any other is 405 METHOD_NOT_ALLOWED with Allow naming them. */
export function allowOnly(path: string, methods: readonly string[]): RequestHandler {
  return (req, res, next) => {
    if (methods.includes(req.method)) return next();
    res.set('Allow', methods.join(', '));
    const message = `${path} accepts ${methods.join(' or ')} only, not ${req.method}`;
    sendDoorError(req, res, new AppError('METHOD_NOT_ALLOWED', message));
  };
}
