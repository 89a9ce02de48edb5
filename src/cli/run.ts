// What every command line tool shares: its arguments read strictly (node:util parseArgs; -h/--help
// prints the usage), configuration (a bad variable stops it, named; the secrets are not read, so in
// production a command needs DATABASE_URL alone: decisions.md 27), the database (opened after the
// arguments are read, always closed), and exit codes: 0 done, 1 refused (a domain refusal, a seed into
// a database that holds data, a setting missing...), 2 wrong usage.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { describeConnectFailure } from '../db/connectFailure.js';
import { DataDirInUse } from '../db/dataDirLock.js';
import type { Db } from '../db/knex.js';
import { openDatabase } from '../db/open.js';
import { SeedRefused } from '../fixtures/demo.js';
import {
  type CommandConfig,
  type CommandLineSettings,
  type Config,
  ConfigError,
  loadCommandConfig,
  loadConfig,
} from '../kernel/config.js';
import { AppError } from '../kernel/errors.js';
import { createLogger } from '../kernel/logger.js';

/** Loads the service's configuration, or stops the process with a message naming the bad variable. */
export function loadConfigOrExit(commandLine: CommandLineSettings = {}): Config {
  return configOrExit(() => loadConfig(process.env, commandLine));
}

function configOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** The command line was wrong: the message and the usage are printed, exit code 2. */
export class UsageError extends Error {}

/** -h or --help: the usage is printed on stdout, exit code 0. */
class HelpRequested extends Error {}

const isParseArgsError = (error: unknown): error is Error & { code: string } =>
  error instanceof Error && String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_');

/**
 * The command's arguments read strictly: an unknown option, a missing value, a value given to a
 * switch or an argument where none is taken is a UsageError naming it, in one line.
 */
export function readArgs<const T extends Omit<ParseArgsConfig, 'args' | 'strict'>>(
  config: T,
  args = process.argv.slice(2),
) {
  const options = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (options.includes('--help') || options.includes('-h')) throw new HelpRequested();
  try {
    return parseArgs({ ...config, args, strict: true });
  } catch (error) {
    if (!isParseArgsError(error)) throw error;
    // Node's message without its advice on positionals, on one line.
    throw new UsageError(error.message.replace(/[.\s]*To specify .*$/s, '').replaceAll('\n', ' '));
  }
}

/**
 * readArgs for a process that is not a command (src/main.ts): --help prints the usage (exit code 0), a
 * wrong command line one line and the usage (exit code 2).
 */
export function readArgsOrExit<const T extends Omit<ParseArgsConfig, 'args' | 'strict'>>(usage: string, config: T) {
  try {
    return readArgs(config);
  } catch (error) {
    if (error instanceof HelpRequested) {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    }
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n${usage}\n`);
      process.exit(2);
    }
    throw error;
  }
}

/**
 * Reads the arguments with `parse`, then runs `work`, which returns the exit code (0 when it returns
 * nothing). Help, wrong usage and refusals are answered here, with their exit codes.
 */
export async function runCommand<Args>(
  usage: string,
  parse: () => Args,
  work: (args: Args) => Promise<number | undefined>,
): Promise<void> {
  try {
    process.exitCode = (await work(parse())) ?? 0;
  } catch (error) {
    if (error instanceof HelpRequested) {
      process.stdout.write(`${usage}\n`);
      process.exitCode = 0;
    } else if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n${usage}\n`);
      process.exitCode = 2;
    } else if (error instanceof SeedRefused || error instanceof AppError) {
      process.stderr.write(`refused: ${error.message}\n`);
      process.exitCode = 1;
    } else if (error instanceof ConfigError) {
      // A setting only one command reads (the sealing keys of npm run keys -- seal-unlock-keys).
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exitCode = 1;
    } else {
      throw error;
    }
  }
}

/**
 * runCommand on the configured database, opened after the arguments are read and always closed. The
 * configuration holds no secret: a command that needs one reads it from `env` (serviceSecrets.ts).
 */
export async function runCli<Args>(
  usage: string,
  parse: () => Args,
  work: (db: Db, config: CommandConfig, args: Args, env: NodeJS.ProcessEnv) => Promise<number | undefined>,
): Promise<void> {
  await runCommand(usage, parse, async (args) => {
    const config = configOrExit(() => loadCommandConfig(process.env));
    let db: Db | undefined;
    try {
      // Knex's warnings (each failed connection attempt, with its stack) stay quiet: a failure is said once, below.
      db = openDatabase(config, createLogger('error', process.stderr), { direct: true });
      return await work(db, config, args, process.env);
    } catch (error) {
      // The database cannot be reached or is another process's: one line, as the service says it at start.
      const failure = config.databaseUrl === null ? undefined : describeConnectFailure(error, config.databaseUrl);
      if (!failure && !(error instanceof DataDirInUse)) throw error;
      process.stderr.write(
        `database error: ${failure ? `${failure.problem}; ${failure.fix}` : (error as Error).message}\n`,
      );
      return 1;
    } finally {
      await db?.destroy();
    }
  });
}
