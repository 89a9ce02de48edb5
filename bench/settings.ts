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
  fromSource: boolean;
  profile: boolean;
  /** --only's words, and the option as given (named in its error). */
  only: string[];
  onlyOption: string;
  executor: string;
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
      'p99-requests': { type: 'string', default: '2000' },
      'max-seconds': { type: 'string', default: '120' },
      // The service's DATABASE_POOL_MAX (its default), the bare baseline's pool and pgbench's paired clients.
      pool: { type: 'string', default: '10' },
      duration: { type: 'string', default: '10' },
      // Seconds of load before each measured run, for both processes alike: the service has far more
      // code for V8 to compile than the baseline, and 2 s left it measured half-warm.
      warmup: { type: 'string', default: '5' },
      connections: { type: 'string', default: '32' },
      out: { type: 'string', default: 'bench' },
      keep: { type: 'boolean', default: false },
      // Run the service and the baselines from their TypeScript sources through tsx, as npm start does,
      // instead of compiled (npm run build) as production runs them: the lever's own measurement.
      'from-source': { type: 'boolean', default: false },
      // After the measured runs, each hot door once more on a service under node --cpu-prof: where its
      // time goes (bench/profile.ts), in results.json and printed.
      profile: { type: 'boolean', default: false },
      // Comma-separated words: only the scenarios whose names contain one (and their baselines), e.g.
      // --only lookup,payment, to measure one lever quickly; the other phases run as always.
      only: { type: 'string', default: '' },
      // GRAPHQL_EXECUTOR of every service process: jit (the default) or graphql-js, the lever's measurement.
      executor: { type: 'string', default: 'jit' },
      // V8's young generation (--max-semi-space-size, MB; V8 rounds it up to a power of two) of every
      // process the bench starts; absent: npm run start:prod's (V8's default); 0: V8's default. The
      // lever's measurement (docs/performance.md#the-levers-one-by-one).
      'semi-space': { type: 'string' },
    },
  });
  if (args.executor !== 'jit' && args.executor !== 'graphql-js')
    fail(`--executor must be jit or graphql-js, got "${args.executor}"`);
  if (args.scale !== undefined && args.customers !== undefined) fail('give --scale or --customers, not both');
  const scale = args.customers === undefined ? positive('scale', args.scale ?? '1') : 0;
  const customers =
    args.customers === undefined ? Math.round(scale * CUSTOMERS_PER_SCALE) : positive('customers', args.customers);
  const duration = positive('duration', args.duration);
  const lookupConnections = positive('connections', args.connections);
  const serviceV8Flags = v8Flags(args['semi-space']);
  return {
    customers,
    scale: scale || Math.round((customers / CUSTOMERS_PER_SCALE) * 1000) / 1000,
    p99Requests: positive('p99-requests', args['p99-requests']),
    maxSeconds: positive('max-seconds', args['max-seconds']),
    pool: positive('pool', args.pool),
    duration,
    warmup: Number(args.warmup),
    lookupConnections,
    paymentConnections: lookupConnections,
    out: args.out,
    outDir: resolve(ROOT, args.out),
    keep: args.keep,
    fromSource: args['from-source'],
    profile: args.profile,
    only: args.only.split(',').filter(Boolean),
    onlyOption: args.only,
    executor: args.executor,
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
