// What a scenario of the bench is, and what a turn that is not autocannon's answered: the types both
// load.ts (the figures of a run) and turns.ts (a turn) speak, kept apart so neither imports the other.
import type autocannon from 'autocannon';
import type { Target } from './services.js';

export interface Scenario {
  name: string;
  label: string;
  target: Target;
  /**
   * The name of the baseline scenario (run before this one) whose rate this one's ratio is against:
   * the lookups against the bare lookup, the payment against the bare payment. None: no ratio (the
   * transaction lists have no bare baseline yet; one names it here once it has).
   */
  baseline?: string;
  connections: number;
  /** Builds autocannon's options for the port. */
  options: (port: number) => autocannon.Options;
  /** For GraphQL, a 200 whose body carries "errors" is a failure. */
  graphql?: boolean;
  rows?: number;
  /**
   * Measured in turns with its baseline and the other scenarios held against it (TURNS each, in
   * alternating order), instead of in one run after theirs.
   */
  inTurns?: boolean;
  /** Measured in the turns of this baseline without a ratio to it (pgbench in the payments'). */
  turnsWith?: string;
  /** A turn at least this long: a list whose answer takes seconds needs turns of several answers. */
  minTurnSeconds?: number;
  /** Runs one turn itself instead of autocannon (pgbench): what it answered in `seconds`. */
  runTurn?: (seconds: number) => Promise<TurnFigures>;
}

/** What a turn that is not autocannon's answered. */
export interface TurnFigures {
  requests: number;
  seconds: number;
  /** Each answer's time in ms (pgbench's per-transaction log). */
  times: number[];
  failed: number;
}
