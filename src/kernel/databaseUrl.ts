// A Postgres URL in libpq's multi-host form, postgres://user:password@host1:5432,host2:5433/db?target_session_attrs=read-write,
// which node-postgres 8 does not read (its URL parser takes one host): split here into one ordinary
// single-host URL per host, in the order given, and the session the service needs of the host it keeps.
// A plain single-host URL comes out as itself, one host and no requirement.

/** libpq's target_session_attrs values the service's pool can use: any host that answers, or only one that takes writes. */
type TargetSessionAttrs = 'any' | 'read-write';

export interface DatabaseAddress {
  /** One postgres:// URL per host, user, password, database and parameters kept, target_session_attrs removed. */
  hostUrls: string[];
  /** `host:port` of each host, for messages (never the password). */
  hostNames: string[];
  targetSessionAttrs: TargetSessionAttrs;
}

// The authority names hosts, so the user information is everything up to the last "@" before the path.
const URL_PARTS = /^(postgres(?:ql)?:\/\/)(?:([^/?#]*)@)?([^/?#]*)([/?#].*)?$/;

/** Parses `raw`; throws an Error whose message completes "DATABASE_URL ..." when it is not a Postgres URL. */
export function parseDatabaseUrl(raw: string): DatabaseAddress {
  const parts = URL_PARTS.exec(raw);
  if (!parts) throw new Error('must start with postgres:// or postgresql://');
  const [, scheme, userInfo, hostList = '', rest = ''] = parts;
  const hosts = hostList.split(',');
  if (hosts.some((host) => host.trim() === '')) throw new Error('names an empty host');
  const hostUrls: string[] = [];
  const hostNames: string[] = [];
  let targetSessionAttrs: TargetSessionAttrs = 'any';
  for (const host of hosts) {
    let url: URL;
    try {
      url = new URL(`${scheme}${userInfo === undefined ? '' : `${userInfo}@`}${host}${rest}`);
    } catch {
      throw new Error(`is not a valid URL at host "${host}" (expected postgres://user:password@host:port/database)`);
    }
    const attrs = url.searchParams.get('target_session_attrs');
    if (attrs !== null) {
      // primary: not in recovery; for the service's pool that is read-write (a primary takes writes).
      if (attrs !== 'any' && attrs !== 'read-write' && attrs !== 'primary') {
        throw new Error(
          `has target_session_attrs=${attrs}; the service writes, so use read-write (or primary, or any)`,
        );
      }
      targetSessionAttrs = attrs === 'any' ? 'any' : 'read-write';
      url.searchParams.delete('target_session_attrs');
    }
    hostUrls.push(url.toString());
    hostNames.push(`${url.hostname}:${url.port || 5432}`);
  }
  // libpq would take the first host that answers, standby or not: writes would then fail until it is restarted.
  if (hostUrls.length > 1 && targetSessionAttrs === 'any') {
    throw new Error(
      'names several hosts: add target_session_attrs=read-write so the service keeps the one that takes writes',
    );
  }
  return { hostUrls, hostNames, targetSessionAttrs };
}
