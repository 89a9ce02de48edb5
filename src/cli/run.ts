// What every command line tool shares: configuration (a bad variable stops it, named), the database
// (opened after the arguments are read, always closed), and exit codes: 0 done, 1 refused (a domain
// refusal, a seed into a database that holds data...), 2 wrong usage.
import { ConfigError, loadConfig, type Config } from '../config.js';
import type { Db } from '../db/knex.js';
import { openDatabase } from '../db/open.js';
import { SeedRefused } from '../fixtures/demo.js';
import { AppError } from '../errors.js';

/** Loads the configuration, or stops the process with a message naming the bad variable. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
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

/**
 * Reads the arguments with `parse` (before anything is opened), then runs `work` on the configured
 * database; `work` returns the exit code (0 when it returns nothing).
 */
export async function runCli<Args>(
  usage: string,
  parse: () => Args,
  work: (db: Db, config: Config, args: Args) => Promise<number | void>,
): Promise<void> {
  let db: Db | undefined;
  try {
    const args = parse();
    const config = loadConfigOrExit();
    db = openDatabase(config);
    process.exitCode = (await work(db, config, args)) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n${usage}\n`);
      process.exitCode = 2;
    } else if (error instanceof SeedRefused || error instanceof AppError) {
      process.stderr.write(`refused: ${error.message}\n`);
      process.exitCode = 1;
    } else {
      throw error;
    }
  } finally {
    await db?.destroy();
  }
}
