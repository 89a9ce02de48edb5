// The whole service on an ephemeral port over a test database, for requests as a client makes them.
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { type AppDeps, type AppLayer, createApp } from '../../src/app.js';
import type { Db } from '../../src/db/knex.js';
import type { ReadReplica } from '../../src/db/replica.js';
import { type JobLoop, startJobLoop } from '../../src/jobs/loop.js';
import { lockInstantsTask, reportRunsTask, webhookTasks } from '../../src/jobs/tasks.js';
import type { TrustProxy } from '../../src/kernel/clientAddress.js';
import type { LogLevel } from '../../src/kernel/config.js';
import { DEFAULT_LIMITS, type LimitSettings } from '../../src/kernel/limitSettings.js';
import { createLogger } from '../../src/kernel/logger.js';
import type { TrustedDocuments } from '../../src/kernel/trustedDocuments.js';
import type { TokenSettings } from '../../src/modules/auth/tokens.js';
import type { PartnerPolicies } from '../../src/modules/partners/policies.js';
import type { DeliverySettings } from '../../src/modules/webhooks/worker.js';
import type { ExecutorStats } from '../../src/pipeline/graphqlExecutor.js';
import { type RateLimitStoreSettings, serviceLayers } from '../../src/serviceLayers.js';
import { onCitus } from './citus.js';
import { TEST_UNLOCK_KEYS } from './unlockKeys.js';

export { TEST_UNLOCK_KEYS } from './unlockKeys.js';

export interface TestService {
  baseUrl: string;
  request: (path: string, init?: RequestInit) => Promise<Response>;
  /** POST a GraphQL operation to /graphql with the given headers. */
  graphql: (
    query: string,
    headers?: Record<string, string>,
    variables?: Record<string, unknown>,
  ) => Promise<{ status: number; body: any }>;
  /** Subscribers listening to the event feed (a subscription is live once counted here). */
  listeningSubscribers: () => number;
  /** What the executor compiled and ran on graphql-jit, and what it left to graphql-js. */
  executorStats: ExecutorStats;
  close: () => Promise<void>;
}

/** The signing settings of every test service: tests can mint and tamper with tokens. */
export const TEST_TOKENS: TokenSettings = {
  signingKeys: [{ id: 'test', secret: 'test-signing-secret-0123456789abcdef' }],
  ttlSeconds: 3600,
};

/**
 * The limits of every test service unless a test passes its own: the GraphQL limits are the
 * defaults (so every suite's documents, and the REST shim's operations, meet them), while the
 * request, failed-authentication, webhook-tool and refused-reference limits are out of reach, since suites send thousands of requests
 * with one key and hundreds of bad credentials from one address. test/ops/limits.test.ts tests those.
 */
export const TEST_LIMITS: LimitSettings = {
  ...DEFAULT_LIMITS,
  requestsPerKey: { limit: 1_000_000, windowSeconds: 60 },
  authFailuresPerAddress: { limit: 1_000_000, windowSeconds: 300 },
  anonymousPerAddress: { limit: 1_000_000, windowSeconds: 60 },
  // Out of reach too: test/webhooks/webhook-tools.test.ts tests the webhook tools' limits.
  webhookTools: {
    perKey: { limit: 1_000_000, windowSeconds: 60 },
    perEndpoint: { limit: 1_000_000, windowSeconds: 60 },
  },
  // And here: test/rest/reference-guesses.test.ts tests the refused payment references' limit.
  paymentReferenceFailures: { limit: 1_000_000, windowSeconds: 60 },
};

export interface TestServiceOptions {
  now?: () => Date;
  tokens?: TokenSettings;
  logger?: Logger;
  limits?: LimitSettings;
  trustProxy?: TrustProxy;
  corsOrigins?: readonly string[];
  /** Where the request limits are counted (REDIS_URL); absent: the test database (memory on PGlite). */
  rateLimitStore?: RateLimitStoreSettings;
  /** A read replica of `db` (test/support/replica.ts); absent: none. */
  replica?: ReadReplica;
  /** The layers around the doors (the bench's core: bench/core.ts); absent: the service's own (serviceLayers). */
  layers?: readonly AppLayer[];
  /**
   * Run what src/main.ts runs beside the doors: the webhook delivery worker (with these settings over
   * its defaults), the lock scheduler and the report runs, stopped by close() in main.ts's order. Absent: neither, and
   * the suites that need one start their own with the settings they test.
   */
  background?: { deliveries?: Partial<DeliverySettings> };
  /** GRAPHQL_TRUSTED_DOCUMENTS's manifest (test/graph/trusted-documents.test.ts); absent: the mode is off. */
  trustedDocuments?: TrustedDocuments;
  /** NODE_ENV=production's mode (test/console/console-door.test.ts); absent: development. */
  production?: boolean;
  /** CONSOLE_ENABLED (test/console/console-door.test.ts); absent: the console is served. */
  consoleEnabled?: boolean;
  /** The port to listen on (a service started again where its clients knew it: test/console/console-resilience.test.ts); absent: any free one. */
  port?: number;
}

/** The service's background tasks, as src/main.ts starts them. */
interface Background {
  jobs: JobLoop;
}

function startBackground(
  deps: AppDeps,
  policies: PartnerPolicies,
  settings: Partial<DeliverySettings> = {},
): Background {
  const background: Background = {
    jobs: startJobLoop({
      db: deps.db,
      logger: deps.logger,
      tasks: [
        lockInstantsTask(deps.db),
        reportRunsTask({
          db: deps.db,
          logger: deps.logger,
          now: () => new Date(),
          policies,
          perPartner: 2,
          retentionDays: 30,
        }),
        ...webhookTasks(
          { db: deps.db, logger: deps.logger, now: () => new Date(), production: deps.production, settings },
          () => background.jobs.wake('webhook deliveries'),
        ),
      ],
    }),
  };
  return background;
}

export async function startTestService(db: Db, options: TestServiceOptions = {}): Promise<TestService> {
  const deps: AppDeps = {
    db,
    // TEST_LOG_LEVEL=error shows what a 500 hid (its error id's log line): how a new backend's refusals are found.
    logger: options.logger ?? createLogger((process.env.TEST_LOG_LEVEL as LogLevel | undefined) ?? 'silent'),
    now: options.now ?? (() => new Date()),
    production: options.production ?? false,
    tokens: options.tokens ?? TEST_TOKENS,
    unlockKeys: TEST_UNLOCK_KEYS,
    limits: options.limits ?? TEST_LIMITS,
    trustProxy: options.trustProxy ?? false,
    replica: options.replica,
    trustedDocuments: options.trustedDocuments,
    consoleEnabled: options.consoleEnabled,
    // Asked of the environment, not the database: a suite's service may stand on one that cannot be reached.
    distributed: onCitus,
  };
  const layers =
    options.layers ?? serviceLayers(deps, { corsOrigins: options.corsOrigins, rateLimitStore: options.rateLimitStore });
  const { app, subscriptions, stop, executorStats, policies } = await createApp(deps, layers);
  const background = options.background ? startBackground(deps, policies, options.background.deliveries) : null;
  const server: Server = app.listen(options.port ?? 0, '127.0.0.1');
  // Never closes an idle connection under the test's client (which drops its own after 4 s): Node's
  // default 5 s raced the client on a busy machine, a request sent as the server closed the
  // connection read ECONNRESET (decisions.md 38). close() ends them all.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.once('listening', resolve));
  subscriptions.attach(server);
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const request = (path: string, init?: RequestInit) => fetch(`${baseUrl}${path}`, init);
  return {
    baseUrl,
    request,
    graphql: async (query, headers = {}, variables) => {
      const response = await request('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, body: await response.json() };
    },
    listeningSubscribers: () => subscriptions.listening(),
    executorStats,
    close: async () => {
      await subscriptions.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      // The batches under way commit or roll back, the posts under way are recorded.
      await background?.jobs.stop();
      await stop();
    },
  };
}
