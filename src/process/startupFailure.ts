// A start that cannot go on ends in one line on stderr and exit code 1 (decisions.md 27), in the style of
// "configuration error: ...": the problem and its fix, never a stack trace (only at LOG_LEVEL debug or
// trace, for a failure nothing here recognises), never the database's password.
import { describeConnectFailure } from '../db/connectFailure.js';
import { DataDirInUse } from '../db/dataDirLock.js';
import type { Config } from '../kernel/config.js';

/** A refusal the start itself decided (the schema behind or ahead): its problem and its fix. */
export class StartupFailure extends Error {
  constructor(
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`${problem}; ${fix}`);
    this.name = 'StartupFailure';
  }
}

/** Node's errors of listen(), in the words of PORT and HOST. */
function listenFailure(
  error: NodeJS.ErrnoException & { hostname?: string },
  config: Config,
): StartupFailure | undefined {
  const where = `port ${config.port} on ${config.host}`;
  // The listener's own errors only: the database's connection has ENOTFOUND and EACCES of its own.
  const ofListen = error.syscall === 'listen' || (error.syscall === 'getaddrinfo' && error.hostname === config.host);
  if (!ofListen) return undefined;
  if (error.code === 'EADDRINUSE') {
    return new StartupFailure(`${where} is in use by another process`, 'stop that process or set PORT to a free port');
  }
  if (error.code === 'EACCES') {
    return new StartupFailure(`${where} needs privileges this process does not have`, 'set PORT to 1024 or above');
  }
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
    return new StartupFailure(
      `HOST ${config.host} is not an address of this machine`,
      'set HOST (0.0.0.0: every interface)',
    );
  }
  return undefined;
}

/** The one line that says why the start failed. */
export function startupFailureLine(error: unknown, config: Config): string {
  const known =
    error instanceof StartupFailure
      ? error
      : error instanceof DataDirInUse
        ? new StartupFailure(
            `${error.message} (its lock: ${error.lockFile})`,
            'stop that process first, or set DATA_DIR to another folder',
          )
        : undefined;
  const failure =
    known ??
    (typeof error === 'object' && error !== null ? listenFailure(error as NodeJS.ErrnoException, config) : undefined) ??
    (config.databaseUrl === null ? undefined : connectFailure(error, config.databaseUrl));
  if (failure) return `startup error: ${failure.message}`;
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  return `startup error: ${name}: ${message.replaceAll(/\s*\n\s*/g, ' ')}`;
}

function connectFailure(error: unknown, databaseUrl: string): StartupFailure | undefined {
  const described = describeConnectFailure(error, databaseUrl);
  return described && new StartupFailure(described.problem, described.fix);
}

/** Writes the line (and, at debug or trace, the stack of an error it does not recognise) and exits 1. */
export function exitOnStartupFailure(error: unknown, config: Config): never {
  const line = startupFailureLine(error, config);
  process.stderr.write(`${line}\n`);
  const verbose = config.logLevel === 'debug' || config.logLevel === 'trace';
  if (verbose && error instanceof Error && !(error instanceof StartupFailure)) process.stderr.write(`${error.stack}\n`);
  process.exit(1);
}
