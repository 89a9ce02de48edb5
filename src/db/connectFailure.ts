// Why the database refused or could not be reached at start, in words an operator can act on (decisions.md
// 27): the errors of node's sockets and Postgres's SQLSTATEs read once here, where the driver is known.
import { parseDatabaseUrl } from '../kernel/databaseUrl.js';

interface ConnectFailure {
  problem: string;
  fix: string;
}

interface DriverError {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  errors?: unknown;
}

/** The socket error codes of an error, including those an AggregateError (happy eyeballs) carries. */
function codesOf(error: DriverError): string[] {
  const inner = Array.isArray(error.errors) ? (error.errors as DriverError[]).flatMap(codesOf) : [];
  return [...(typeof error.code === 'string' ? [error.code] : []), ...inner];
}

/** The server(s), database and user of a postgres:// URL (a failover list names each host). Never the password. */
function partsOf(databaseUrl: string): { server: string; database: string; user: string } {
  const { hostNames, hostUrls } = parseDatabaseUrl(databaseUrl);
  const first = new URL(hostUrls[0]!);
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const user = decode(first.username);
  return {
    server: hostNames.join(','),
    database: decode(first.pathname.slice(1)) || user || 'postgres',
    user: user || 'the default user',
  };
}

/**
 * What went wrong with the connection to `databaseUrl`, or undefined when `error` is not a connection
 * failure (a failing statement, a bug). Names host, port, database and user, never the password.
 */
export function describeConnectFailure(error: unknown, databaseUrl: string): ConnectFailure | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const driverError = error as DriverError;
  const codes = codesOf(driverError);
  const message = typeof driverError.message === 'string' ? driverError.message : '';
  const { server, database, user } = partsOf(databaseUrl);
  const where = `${server}/${database}`;
  const fixUrl = 'or fix DATABASE_URL';
  if (codes.includes('3D000')) {
    return {
      problem: `database "${database}" does not exist on ${server}`,
      fix: `create it (createdb ${database}) ${fixUrl}`,
    };
  }
  if (codes.includes('28P01') || codes.includes('28000')) {
    return {
      problem: `authentication failed for user "${user}" on ${where} (${message})`,
      fix: "fix the user or password in DATABASE_URL, or the server's pg_hba.conf",
    };
  }
  if (codes.includes('ECONNREFUSED')) {
    return { problem: `database unreachable at ${server}: connection refused`, fix: `start Postgres there ${fixUrl}` };
  }
  if (codes.includes('ENOTFOUND') || codes.includes('EAI_AGAIN')) {
    return { problem: `database host of ${server} not found`, fix: 'fix the host in DATABASE_URL' };
  }
  if (
    codes.some((code) => ['ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code)) ||
    driverError.name === 'KnexTimeoutError' ||
    /connection timeout|timeout expired|timeout acquiring/i.test(message)
  ) {
    return {
      problem: `database unreachable at ${server}: no answer in time`,
      fix: `check the network and Postgres there ${fixUrl}`,
    };
  }
  if (codes.includes('57P03')) {
    return {
      problem: `the database at ${server} is starting up or in recovery`,
      fix: 'start again once it accepts connections',
    };
  }
  if (codes.includes('53300')) {
    return {
      problem: `the database at ${server} has too many connections`,
      fix: 'raise max_connections or lower DATABASE_POOL_MAX',
    };
  }
  if (codes.includes('ECONNRESET') || /Connection terminated/i.test(message)) {
    return {
      problem: `the database at ${server} closed the connection (${message})`,
      fix: `check Postgres there ${fixUrl}`,
    };
  }
  return undefined;
}
