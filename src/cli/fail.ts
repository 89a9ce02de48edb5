import { ConfigError, loadConfig, type Config } from '../config.js';

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
