// The one error a bad setting raises: the variable's name and what is wrong with it, said in one line
// (`configuration error: ...`) by whoever loads the configuration.

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

/** The environment as the configuration reads it. */
export type Env = Record<string, string | undefined>;
