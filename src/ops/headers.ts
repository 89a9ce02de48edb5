// Response headers every answer carries (helmet's defaults), and CORS for the dashboards on /graphql.
// The RateLimit headers of an authenticated request are the doors' own (http/rateLimitHeaders.ts).
import cors from 'cors';
import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

/** What one policy does to a response: headers set, in helmet's order, and removed (value undefined). */
type HeaderList = ReadonlyArray<readonly [name: string, value: string | undefined]>;

/**
 * The headers a helmet middleware writes, read once by running it on a recorder: none of helmet's
 * defaults depends on the request (its CSP is a fixed string here), so every response can be given
 * the same list without running helmet's chain of middleware per request.
 */
function headerListOf(policy: RequestHandler): HeaderList {
  const list: Array<readonly [string, string | undefined]> = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => void list.push([name, String(value)]),
    removeHeader: (name: string) => void list.push([name, undefined]),
  };
  let passed = false;
  policy({} as Request, recorder as unknown as Response, (error?: unknown) => {
    passed = error === undefined;
  });
  // A helmet that read the request or answered later would need running per request: say so at start.
  if (!passed) throw new Error('the security headers could not be read once: helmet did not pass at once');
  return list;
}

const applying =
  (list: HeaderList) =>
  (res: Response): void => {
    for (const [name, value] of list) {
      if (value === undefined) res.removeHeader(name);
      else res.setHeader(name, value);
    }
  };

/**
 * helmet's defaults on every response (Content-Security-Policy, Strict-Transport-Security,
 * X-Content-Type-Options, X-Frame-Options, Referrer-Policy, Cross-Origin-*-Policy, ...), each policy
 * one list built at start. One exception outside production: GET /graphql is Apollo Sandbox's landing
 * page, which loads its code from Apollo's CDN and sets its own nonce-based policy in a <meta> tag; a
 * CSP header would be enforced on top of it and block the CDN, so that page gets every header but the
 * CSP. In production there is no landing page and the strict defaults apply everywhere.
 */
export function securityHeaders(options: { production: boolean }): (req: Request, res: Response) => void {
  const strict = applying(headerListOf(helmet()));
  if (options.production) return (_req, res) => strict(res);
  const landingPage = applying(headerListOf(helmet({ contentSecurityPolicy: false })));
  return (req, res) => {
    const sandbox = (req.method === 'GET' || req.method === 'HEAD') && res.locals.route === '/graphql';
    (sandbox ? landingPage : strict)(res);
  };
}

/**
 * The Content-Security-Policy of the service's own browser pages (/, /docs, /graphiql: src/pages),
 * in place of helmet's default on their HTML. Everything a page loads is the service's own: scripts
 * from 'self' only (no inline script, no eval), styles and fonts from 'self' (and data: fonts, which
 * GraphiQL's stylesheet inlines) rather than helmet's "any https: host", so no CDN can creep in.
 * Without upgrade-insecure-requests: every URL a page names is relative, so on HTTPS it gains nothing,
 * and on plain HTTP to anything but localhost (a VM, HOST=0.0.0.0 seen from another machine) it sent
 * each asset, fetch and link to https:// on the same port and left a blank page.
 */
export function browserPagePolicy(): RequestHandler {
  return helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      'default-src': ["'self'"],
      'base-uri': ["'self'"],
      'font-src': ["'self'", 'data:'],
      'form-action': ["'self'"],
      'frame-ancestors': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'object-src': ["'none'"],
      'script-src': ["'self'"],
      'script-src-attr': ["'none'"],
      'style-src': ["'self'"],
    },
  });
}

/**
 * The console's policy (docs/decisions.md 46), stricter than the other pages': nothing is allowed
 * unless named; its script, stylesheet, fetches and WebSocket from 'self' only (CSP Level 3's 'self'
 * covers the page's own ws: and wss:), no form posting anywhere, no framing.
 */
export function consolePagePolicy(): RequestHandler {
  return helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      'default-src': ["'none'"],
      'script-src': ["'self'"],
      'style-src': ["'self'"],
      'connect-src': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'base-uri': ["'none'"],
      'form-action': ["'none'"],
      'frame-ancestors': ["'none'"],
    },
  });
}

/**
 * CORS for browser dashboards on /graphql, for exactly the configured origins (CORS_ORIGINS). No
 * origins: no CORS headers at all, so browsers on other origins cannot read the answers. Credentials
 * travel in headers (X-Api-Key, Authorization), never cookies, so credentialed CORS is not enabled; a
 * preflight may ask for any request header (the origin is trusted) and is cached for 10 minutes.
 */
export function graphqlCors(origins: readonly string[]): RequestHandler | undefined {
  if (origins.length === 0) return undefined;
  return cors({
    origin: [...origins],
    methods: ['GET', 'POST'],
    exposedHeaders: ['X-Request-ID', 'Retry-After', 'RateLimit', 'RateLimit-Policy'],
    maxAge: 600,
  });
}
