// The security headers (headers.ts): each page policy's list, read from helmet once, leaves every
// response with exactly the headers helmet itself sets, the Sandbox landing page's without the CSP.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { securityHeaders } from './headers.js';

/** The headers a response holds once `set` has run on a request of `method` to `route`. */
function headersAfter(set: (req: Request, res: Response) => void, method: string, route?: string) {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  const res = new ServerResponse(req) as ServerResponse & { locals: Record<string, unknown> };
  res.locals = route ? { route } : {};
  res.setHeader('X-Powered-By', 'Express');
  set(req as Request, res as unknown as Response);
  return res.getHeaders();
}

/** helmet itself, run as express runs it: it must pass at once. */
const helmetOf =
  (policy: RequestHandler) =>
  (req: Request, res: Response): void => {
    let passed = false;
    policy(req, res, () => {
      passed = true;
    });
    expect(passed).toBe(true);
  };

describe('the security headers', () => {
  it.each([
    ['production, any page', true, 'GET', '/v1/lookup-customer.php', true],
    ['production, the Sandbox page', true, 'GET', '/graphql', true],
    ['development, any page', false, 'POST', '/graphql', true],
    ['development, the Sandbox page', false, 'GET', '/graphql', false],
    ['development, the Sandbox page (HEAD)', false, 'HEAD', '/graphql', false],
  ])('%s: exactly what helmet sets', (_name, production, method, route, strict) => {
    const headers = headersAfter(securityHeaders({ production }), method, route);
    const expected = helmetOf(strict ? helmet() : helmet({ contentSecurityPolicy: false }));
    expect(headers).toEqual(headersAfter(expected, method, route));
    expect(headers['x-powered-by']).toBeUndefined();
    expect(headers['strict-transport-security']).toBeDefined();
    expect(headers['content-security-policy'] !== undefined).toBe(strict);
  });
});
