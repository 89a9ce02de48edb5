// What of a request's URL may be written down (the request's log line, its trace): the path, never the
// query string (the partner key travels there), with any credential written into the path masked.

// A credential written into the path itself (a client's "list-clerks.php&key=..." or an encoded "?").
const CREDENTIAL_IN_PATH = /((?:api[_-]?)?key|(?:access[_-]?)?token)(=|%3d)(?:(?!%26)[^/;&])*/gi;

/**
 * The path of a request line: never the query string, and any credential-looking parameter inside the
 * path masked. From originalUrl: a mounted middleware such as /graphql leaves req.path trimmed to "/"
 * when it answers the request itself.
 */
export function loggedPath(originalUrl: string): string {
  return originalUrl.replace(/[?#].*$/s, '').replace(CREDENTIAL_IN_PATH, '$1$2[redacted]');
}

/** The names of a URL's query parameters, their values dropped ("key=&customerLocator="): null without a query. */
export function queryNamesOnly(url: string): string | null {
  const start = url.indexOf('?');
  if (start < 0) return null;
  const names = new URLSearchParams(url.slice(start + 1).replace(/#.*$/s, '')).keys();
  return [...names].map((name) => `${encodeURIComponent(name)}=`).join('&');
}

/**
 * The probes' and the scrape's paths: many requests a minute, each worth nothing alone. Their request
 * lines are written at debug when they succeed (docs/decisions.md, 28), and they make no trace.
 */
export const PROBE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);
