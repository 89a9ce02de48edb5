// The bench's command line (npm run bench -- ...), read and checked once by bench/run.ts, and the
// constants every phase shares. A bad option exits with status 2 before anything starts.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where `tsx scripts/build.ts --bench` compiles the service and bench/ (tsconfig.bench.json). */
export const BUILD_DIR = join(ROOT, 'dist-bench');
export const DAY = 86_400;
/** Turns in which a baseline and the scenarios held against it share their measured duration (Scenario.inTurns). */
export const TURNS = 5;
/** Customers of the 1x data set: `--scale N` fills 20,000 x N, as `npm run bench:data -- --scale N` does. */
export const CUSTOMERS_PER_SCALE = 20_000;
/** Customers of --smoke's data set: enough for every phase (the generator makes 500 store keys at least). */
export const SMOKE_CUSTOMERS = 2000;

export interface Settings {
  customers: number;
  /** The data set's size against the 1x set (customers / 20,000): its results' key in results.json's scales. */
  scale: number;
  /** Answers a scenario's p99 is read from, at least, unless --max-seconds of load ends it first. */
  p99Requests: number;
  /** Seconds of measured load at most per scenario while it gathers --p99-requests answers. */
  maxSeconds: number;
  /** The service's database pool (DATABASE_POOL_MAX), the bare baseline's, and pgbench's paired clients. */
  pool: number;
  duration: number;
  warmup: number;
  lookupConnections: number;
  /** The payments (service, bare baseline, and pgbench's clients) run at the lookups' connections. */
  paymentConnections: number;
  /** --out as given (printed), and resolved from the repository's root. */
  out: string;
  outDir: string;
  keep: boolean;
  /**
   * --database NAME: a database of the server that a run kept (--keep) or `npm run bench:data` filled,
   * migrated to the latest and used as it is (neither filled nor dropped): a 10x run without its
   * minutes of fill. Its data then carries what earlier runs wrote (payments, keys); the lock timeline,
   * whose orders stay, does not run on it.
   */
  reuse: string | null;
  fromSource: boolean;
  profile: boolean;
  /** --only's words, and the option as given (named in its error). */
  only: string[];
  onlyOption: string;
  /**
   * --smoke: a short run that proves every phase still runs (CI's bench step): a small data set, a few
   * seconds a phase, nothing written, and a scenario with a failed or no answer fails the run. Its
   * figures mean nothing.
   */
  smoke: boolean;
  /** --citus: the Citus comparison alone (bench/citus.ts). */
  citus: boolean;
  /** pgbench's client counts swept before the load (the pool's added); the largest sets its scale. */
  pgbenchSweep: number[];
  /** Turns a group of scenarios is measured in (TURNS; one in a smoke run), and the webhooks' halves. */
  turns: number;
  /**
   * Before each measured run, waits until the service is idle (settle), and vacuums and checkpoints
   * the database; a smoke run only until the service answers.
   */
  quietBeforeRuns: boolean;
  /** Events written at once for the webhook worker's capacity. */
  webhookCapacityBacklog: number;
  /** Orders locking at one instant in the lock timeline's phase. */
  lockTimelineOrders: number;
  /** bench/graphql-execution.ts's executions per executor, and its warm-up ones. */
  graphqlExecution: { runs: number; warmup: number };
  /** The book phase's requests per read, one at a time (the history's more: each is short), and its warm-up ones. */
  book: { runs: number; warmup: number; historyRuns: number };
  /** The V8 flags of every service process, and of the bare baselines (serviceV8Flags below). */
  serviceV8Flags: string[];
  baselineV8Flags: string[];
}

export function readSettings(): Settings {
  const { values: args } = parseArgs({
    options: {
      // The data set: --scale N fills 20,000 x N customers (the 1x set is 20,000); --customers N any other
      // size (its scale then N / 20,000). Not both.
      scale: { type: 'string' },
      customers: { type: 'string' },
      // Every scenario's turns go on until it has this many answers (its p99 from them), or --max-seconds.
      'p99-requests': { type: 'string' },
      'max-seconds': { type: 'string' },
      // The service's DATABASE_POOL_MAX (its default), the bare baseline's pool and pgbench's paired clients.
      pool: { type: 'string', default: '10' },
      duration: { type: 'string' },
      // Seconds of load before each measured run, for both processes alike: the service has far more
      // code for V8 to compile than the baseline, and 2 s left it measured half-warm.
      warmup: { type: 'string' },
      connections: { type: 'string' },
      out: { type: 'string', default: 'bench' },
      keep: { type: 'boolean', default: false },
      // An existing database to run on (migrated, not filled, never dropped): see Settings.reuse.
      database: { type: 'string' },
      // Run the service and the baselines from their TypeScript sources through tsx, as npm start does,
      // instead of compiled (npm run build) as production runs them: the lever's own measurement.
      'from-source': { type: 'boolean', default: false },
      // After the measured runs, each hot door once more on a service under node --cpu-prof: where its
      // time goes (bench/profile.ts), in results.json and printed.
      profile: { type: 'boolean', default: false },
      // Comma-separated words: only the scenarios whose names contain one (and their baselines), e.g.
      // --only lookup,payment, to measure one lever quickly; the other phases run as always. `book`
      // names the book's phase (scenarios/book.ts), which always runs: --only book loads no scenario.
      only: { type: 'string', default: '' },
      // V8's young generation (--max-semi-space-size, MB; V8 rounds it up to a power of two) of every
      // process the bench starts; absent: npm run start:prod's (V8's default); 0: V8's default. The
      // lever's measurement (docs/performance.md#the-levers-one-by-one).
      'semi-space': { type: 'string' },
      // Every phase once, briefly, on a small data set: does the bench still run? (.ci/run)
      smoke: { type: 'boolean', default: false },
      // The service on a Citus cluster beside plain Postgres, payments and lookups, and nothing else
      // (bench/citus.ts): a run of its own, its figures in bench/citus.json.
      citus: { type: 'boolean', default: false },
    },
  });
  const smoke = args.smoke;
  // Each option's default, and the smoke's: every phase a few seconds on 2,000 customers.
  const chosen = (name: keyof typeof args, normal: string, short: string) =>
    (args[name] as string | undefined) ?? (smoke ? short : normal);
  // The smoke's figures mean nothing: no warm-up, one turn, no wait for a quiet service between turns.
  if (args.scale !== undefined && args.customers !== undefined) fail('give --scale or --customers, not both');
  if (smoke && (args.scale !== undefined || args.out !== 'bench' || args.profile || args.database !== undefined))
    fail('--smoke runs its own small data set and writes nothing: not with --scale, --out, --profile or --database');
  if (args.database !== undefined && !/^[a-z_][a-z0-9_]*$/.test(args.database))
    fail(`--database names a database of BENCH_DATABASE_URL's server (lower case, digits, _), got "${args.database}"`);
  const customersOption = args.customers ?? (smoke ? String(SMOKE_CUSTOMERS) : undefined);
  const scale = customersOption === undefined ? positive('scale', args.scale ?? '1') : 0;
  const customers =
    customersOption === undefined ? Math.round(scale * CUSTOMERS_PER_SCALE) : positive('customers', customersOption);
  const duration = positive('duration', chosen('duration', '10', '1'));
  const lookupConnections = positive('connections', chosen('connections', '32', '8'));
  const serviceV8Flags = v8Flags(args['semi-space']);
  return {
    customers,
    scale: scale || Math.round((customers / CUSTOMERS_PER_SCALE) * 1000) / 1000,
    p99Requests: positive('p99-requests', chosen('p99-requests', '2000', '1')),
    maxSeconds: positive('max-seconds', chosen('max-seconds', '120', '2')),
    pool: positive('pool', args.pool),
    duration,
    warmup: Number(chosen('warmup', '5', '0')),
    lookupConnections,
    paymentConnections: lookupConnections,
    out: args.out,
    outDir: resolve(ROOT, args.out),
    keep: args.keep,
    reuse: args.database ?? null,
    fromSource: args['from-source'],
    profile: args.profile,
    only: args.only.split(',').filter(Boolean),
    onlyOption: args.only,
    smoke,
    citus: args.citus,
    pgbenchSweep: smoke ? [1, 2] : [1, 2, 4, 8, 16, 32],
    turns: smoke ? 1 : TURNS,
    quietBeforeRuns: !smoke,
    webhookCapacityBacklog: smoke ? 200 : 5000,
    lockTimelineOrders: smoke ? 500 : 10_000,
    graphqlExecution: smoke ? { runs: 2, warmup: 1 } : { runs: 30, warmup: 15 },
    book: smoke ? { runs: 2, warmup: 1, historyRuns: 2 } : { runs: 20, warmup: 3, historyRuns: 50 },
    serviceV8Flags,
    // The bare baselines run as the service does: the same V8 flags (heap cap and young generation).
    baselineV8Flags: serviceV8Flags,
  };
}

/**
 * The V8 settings npm run start:prod starts the service with (its heap cap; a young generation if it
 * sets one), read from package.json so the bench runs what production runs, and --semi-space's young
 * generation instead if given. The young generation, which sets how much garbage may pile up before a
 * collection, applies to the bare baselines too: they run in the same process setup, never a
 * handicapped one.
 */
function v8Flags(semiSpace: string | undefined): string[] {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  const flags = scripts['start:prod']!.split(' ').filter((word) => /^--max-(old|semi)-space-size=\d+$/.test(word));
  if (semiSpace === undefined) return flags;
  if (!/^\d+$/.test(semiSpace)) fail(`--semi-space must be a whole number of MB (0: V8's default), got "${semiSpace}"`);
  const kept = flags.filter((flag) => !flag.startsWith('--max-semi-space-size='));
  return semiSpace === '0' ? kept : [...kept, `--max-semi-space-size=${semiSpace}`];
}

function positive(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) fail(`--${name} must be a positive number, got "${raw}"`);
  return value;
}

function fail(message: string): never {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}
