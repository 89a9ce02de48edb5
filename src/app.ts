// createApp(deps, layers) -> the express app with every door: the REST shim (legacy route table),
// /graphql (http/graphqlDoor.ts), the device door, and the WebSocket door its caller attaches to the
// server; the browser pages beside them (/, /docs, /graphiql), with the layers its caller gives around
// them (main.ts: serviceLayers; the bench: its own). It never listens itself: main.ts and the tests do.

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import express, { type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import { activeDemoKeys } from './fixtures/demo.js';
import { createDeviceDoor } from './http/deviceDoor.js';
import { allowOnly, doorOf, READ_METHODS, sendDoorError, sendUnexpectedError } from './http/errorResponses.js';
import { createGraphqlDoor, GRAPHQL_PATH } from './http/graphqlDoor.js';
import { introspectionDisabledRule, subscriptionsOverHttpPlugin } from './http/graphqlEdges.js';
import { formatGraphqlError } from './http/graphqlErrors.js';
import { createReportsDoor } from './http/reportsDoor.js';
import { createSubscriptionDoor, type SubscriptionDoor } from './http/subscriptions.js';
import type { TrustProxy } from './kernel/clientAddress.js';
import type { Config } from './kernel/config.js';
import { AppError, unreadableBody } from './kernel/errors.js';
import { DEFAULT_LIMITS, GRAPHQL_BODY_LIMIT, type LimitSettings } from './kernel/limitSettings.js';
import { untraced } from './kernel/tracing.js';
import { type TrustedDocuments, trustingAlso } from './kernel/trustedDocuments.js';
import { createDeviceSigner, type DeviceSigningKey, generateDeviceSigningKey } from './modules/deviceDoor/signing.js';
import { listenToCommittedEvents, logPublicationFailures } from './modules/events/log.js';
import { type PartnerPolicies, startPartnerPolicies } from './modules/partners/policies.js';
import { unlockKeySealer } from './modules/unlockCodes/sealing.js';
import { eventMetrics, paymentMetrics, rateLimitStoreMetrics, readMetrics, webSocketMetrics } from './ops/metrics.js';
import { createConsoleRouter } from './pages/console.js';
import { consoleOperationTexts } from './pages/consoleBundle.js';
import { createPagesRouter } from './pages/router.js';
import { sandboxLandingPage } from './pages/sandbox.js';
import type { Context, ServiceDeps } from './pipeline/context.js';
import { createOperationShapeRule } from './pipeline/documentLimits/graphqlLimits.js';
import { countListItems } from './pipeline/documentLimits/listItemCeiling.js';
import { createJitExecutor, type ExecutorStats, jitGateway } from './pipeline/graphqlExecutor.js';
import { memoryRateLimitStore, type RateLimitStore } from './pipeline/rateLimits/rateLimitStore.js';
import { createRequestLimiter, type RequestLimiter } from './pipeline/rateLimits/requestLimits.js';
import type { StoreWatch } from './pipeline/rateLimits/storeGuard.js';
import { readRoutingPlugin } from './pipeline/readRouting.js';
import { buildSchema } from './pipeline/schema.js';
import { trustedDocumentsPlugin } from './pipeline/trustedDocuments.js';
import { createLegacyHandler } from './rest/handler.js';
import { LEGACY_ROUTES } from './rest/routes.js';

export interface AppDeps extends ServiceDeps {
  production: boolean;
  /** Requests per key, failed authentications per address, GraphQL document limits; DEFAULT_LIMITS when absent. */
  limits?: LimitSettings;
  /** Express's `trust proxy` (TRUST_PROXY): whose X-Forwarded-For gives req.ip; false when absent. */
  trustProxy?: TrustProxy;
  /** The keys that sign the device door's answers (DEVICE_SIGNING_KEYS); absent: one generated for this app (config.ts refuses that in production). */
  deviceSigningKeys?: readonly DeviceSigningKey[];
  /** REQUEST_TIMEOUT_MS: also how long a list answer may wait for a client that takes nothing; absent: for ever. */
  requestTimeoutMs?: number;
  /** GRAPHQL_TRUSTED_DOCUMENTS's manifest: what callers other than operators may run (decisions.md 33); absent: anything. */
  trustedDocuments?: TrustedDocuments | null;
  /** CONSOLE_ENABLED: whether /console is served (decisions.md 46); absent: it is. */
  consoleEnabled?: boolean;
}

/**
 * What the service's app is given from its configuration: by main.ts, and by the bench's measure of the
 * design's core (bench/core-server.ts), so both serve the same settings. The layers' own settings
 * (CORS_ORIGINS, REDIS_URL) are given to serviceLayers.
 */
export function appDepsOf(config: Config, open: Pick<AppDeps, 'db' | 'logger' | 'replica' | 'distributed'>): AppDeps {
  return {
    ...open,
    now: () => new Date(),
    production: config.production,
    limits: config.limits,
    trustProxy: config.trustProxy,
    tokens: { signingKeys: config.tokenSigningKeys, ttlSeconds: config.tokenTtlSeconds },
    unlockKeys: unlockKeySealer(config.unlockSealingKeys),
    webhookAllowedPorts: config.webhookAllowedPorts,
    deviceSigningKeys: config.deviceSigningKeys,
    requestTimeoutMs: config.requestTimeoutMs,
    trustedDocuments: config.trustedDocuments,
    consoleEnabled: config.consoleEnabled,
  };
}

/** What createApp builds that a layer may use. */
interface AppLayerSetup {
  /** The request limiter both doors charge (its store's state: /readyz). */
  readonly limiter: RequestLimiter;
  /** Whether startDraining was called (/readyz answers 503 "draining"). */
  readonly draining: () => boolean;
}

/**
 * One layer around the doors: a plain object of optional hooks, composed in list order (as envelop
 * composes its plugins). The doors keep every rule of the contract without any; the entry adds what
 * operating the service needs (serviceLayers), the bench measures the doors alone (bench/core.ts).
 */
export interface AppLayer {
  /** The layer's name: what the bench switches off to measure it (docs/decisions.md 47). */
  readonly name?: string;
  /** Express middleware run before the doors (after the request id), in list order. */
  readonly beforeDoors?: (setup: AppLayerSetup) => RequestHandler;
  /** Plugins of the GraphQL pipeline both doors run, in list order. */
  readonly graphqlPlugins?: readonly ApolloServerPlugin<Context>[];
  /**
   * Opens the store the request limits are counted in (the last layer that says), reporting to
   * `watch`; this process's memory when none says.
   */
  readonly rateLimitStore?: (watch: StoreWatch) => Promise<RateLimitStore>;
}

interface App {
  app: express.Express;
  apollo: ApolloServer<Context>;
  /** GraphQL subscriptions over WebSocket: attach to the HTTP server; close before closing it. */
  subscriptions: SubscriptionDoor;
  /** Each partner's time and settings, as this instance knows them (background tasks read them too). */
  policies: PartnerPolicies;
  /** What the executor compiled and ran on graphql-jit, and what it left to graphql-js. */
  executorStats: ExecutorStats;
  /** From now on /readyz answers 503 "draining", so balancers stop sending new requests here. */
  startDraining: () => void;
  /** Stops the GraphQL server and the subscriptions; the caller closes the HTTP server and the database. */
  stop: () => Promise<void>;
}

// GET /openapi.json serves openapi.json as npm run openapi wrote it: built from the route table, with the
// golden files as its examples (test data the service does not carry; a test holds the file to a fresh
// build). Read once, when the service loads; the build copies it to dist/, beside dist/src/.
const OPENAPI_DOCUMENT: unknown = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));

// An incoming X-Request-ID is echoed only when it is safe to put in a header and a log line.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const assignRequestId: RequestHandler = (req, res, next) => {
  const incoming = req.get('x-request-id');
  const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = requestId;
  res.set('X-Request-ID', requestId);
  next();
};

export async function createApp(deps: AppDeps, layers: readonly AppLayer[]): Promise<App> {
  const limits = deps.limits ?? DEFAULT_LIMITS;
  // One limiter for both doors (each builds its contexts from `service`), its counts where the layers say.
  // Payment outcomes are counted by the metrics, through the context's port (resolvers never import ops/).
  const openStore = layers.findLast((layer) => layer.rateLimitStore)?.rateLimitStore;
  const store = openStore
    ? await openStore({ logger: deps.logger, observer: rateLimitStoreMetrics })
    : memoryRateLimitStore();
  const limiter = createRequestLimiter(limits, { store, logger: deps.logger });
  const observe = deps.observe ?? paymentMetrics;
  // The event log publishes its committed events itself (modules/events/log.ts); the metrics listen.
  listenToCommittedEvents(deps.db, eventMetrics);
  logPublicationFailures(deps.db, deps.logger);
  // The partners' settings and sandbox clocks, in this process's memory, kept current by their notifications.
  const running = deps.policies
    ? null
    : await startPartnerPolicies(deps.db, { realNow: deps.now, production: deps.production, logger: deps.logger });
  const policies = deps.policies ?? running!.policies;
  const service: ServiceDeps = { ...deps, limiter, observe, policies };
  // Its SDL files' parses at start make no spans (tracing on): they are no request's work.
  const schema = countListItems(untraced(buildSchema));
  // Apollo's gateway interface hands every validated operation to graphql-jit (graphql-js behind it).
  const jit = createJitExecutor(schema, deps.logger);
  // The REST door runs its own operations, in-process: trusted beside the manifest's, for every key;
  // so are the console's, the service's own texts too (decisions.md 46).
  const consoleEnabled = deps.consoleEnabled !== false;
  const trusted = deps.trustedDocuments
    ? trustingAlso(deps.trustedDocuments, [
        ...LEGACY_ROUTES.map((route) => route.operation),
        ...(consoleEnabled ? consoleOperationTexts() : []),
      ])
    : null;
  const apollo = new ApolloServer<Context>({
    gateway: jitGateway(schema, jit),
    // The parser stops at the token limit: an oversized document costs no more than one of the limit.
    parseOptions: { maxTokens: limits.graphql.maxTokens },
    validationRules: [
      createOperationShapeRule(limits.graphql),
      ...(deps.production ? [introspectionDisabledRule] : []),
    ],
    // Production refuses introspection with its own rule (the service's words and code), not Apollo's.
    introspection: true,
    // In production no error names what the schema holds ("Did you mean ...?").
    hideSchemaDetailsFromClientErrors: deps.production,
    includeStacktraceInErrorResponses: false,
    // main.ts owns draining on SIGTERM; Apollo's own signal handler would race it.
    stopOnTerminationSignals: false,
    // Apollo's own warnings as JSON lines of the service's log (its default logger prints text: decisions.md 28).
    logger: deps.logger,
    // No automatic persisted queries: per instance, anyone's documents (decisions.md 33). The manifest
    // of trusted documents, when set, is what names documents by id (trustedDocumentsPlugin).
    persistedQueries: false,
    plugins: [
      // Apollo installs its cache-control plugin by default, and it wraps every field's resolver to
      // read @cacheControl hints: a cost per field of every answer (10,000 transactions are ~300,000
      // fields) for hints this graph does not use.
      ApolloServerPluginCacheControlDisabled(),
      // Before Apollo reads the request: a document's id becomes its text, or the request is refused.
      trustedDocumentsPlugin(trusted),
      // A subscription over HTTP: 400 SUBSCRIPTION_NEEDS_WEBSOCKET, not an execution that fails.
      subscriptionsOverHttpPlugin<Context>(),
      ...layers.flatMap((layer) => layer.graphqlPlugins ?? []),
      // With DATABASE_REPLICA_URL: queries read the replica, mutations record where their key wrote.
      ...(deps.replica ? [readRoutingPlugin(deps.db, readMetrics)] : []),
      deps.production ? ApolloServerPluginLandingPageDisabled() : sandboxLandingPage(),
    ],
    // The same words as the WebSocket door's (src/http/graphqlErrors.ts).
    formatError: (formatted, error) => formatGraphqlError(formatted, error, deps.logger),
  });
  await apollo.start();

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy ?? false); // req.ip: the failed-authentication limit counts by it
  app.set('etag', false);
  const subscriptions = createSubscriptionDoor({
    service,
    schema,
    limits,
    production: deps.production,
    logger: deps.logger,
    trusted,
    observe: webSocketMetrics,
    // The upgrade request's client address as Express's req.ip would say it (TRUST_PROXY): the same
    // failed-authentication counts as HTTP's.
    clientAddressOf: (request) =>
      (
        Object.create(app.request, {
          headers: { value: request.headers },
          socket: { value: request.socket },
        }) as Request
      ).ip ?? null,
  });
  app.use(assignRequestId);
  let draining = false;
  const setup: AppLayerSetup = { limiter, draining: () => draining };
  for (const layer of layers) if (layer.beforeDoors) app.use(layer.beforeDoors(setup));

  // The legacy contract: each path answers its own method, and 405 with Allow for any other.
  for (const route of LEGACY_ROUTES) {
    const handle = createLegacyHandler({ service, apollo, schema, stalledClientMs: deps.requestTimeoutMs }, route);
    app.all(route.path, allowOnly(route.path, [route.method]), handle);
  }

  // The device door: devices' check-ins, and the keys that verify their answers.
  app.use(
    createDeviceDoor(
      { ...service, policies },
      createDeviceSigner(deps.deviceSigningKeys ?? [generateDeviceSigningKey()]),
    ),
  );

  // The report runs' files: by a signed link or the partner's key (src/http/reportsDoor.ts).
  app.use(createReportsDoor(service));

  app
    .route('/openapi.json')
    .get((_req, res) => {
      res.json(OPENAPI_DOCUMENT);
    })
    .all(allowOnly('/openapi.json', READ_METHODS));

  // The browser pages: / (and, outside production, the demo keys working on this database), /docs over
  // /openapi.json, GraphiQL outside production; each served with its assets by the service itself.
  app.use(
    createPagesRouter({
      production: deps.production,
      demoKeys: deps.production ? undefined : () => activeDemoKeys(deps.db),
      logger: deps.logger,
    }),
  );

  // The console: a page over /graphql alone, unless CONSOLE_ENABLED=false (decisions.md 46).
  const consoleRouter = consoleEnabled
    ? createConsoleRouter({ production: deps.production, logger: deps.logger })
    : null;
  if (consoleRouter) app.use(consoleRouter);

  // GraphQL over HTTP: translate, ask the pipeline, write (src/http/graphqlDoor.ts).
  app.use(GRAPHQL_PATH, createGraphqlDoor({ service, apollo, limits }));

  app.use((req, res) => {
    sendDoorError(req, res, new AppError('RESOURCE_NOT_FOUND', `no endpoint ${req.method} ${req.path}`));
  });

  // Last resort, in the error body of the request's door: an unreadable body is the client's fault
  // (4xx, a taxonomy error); anything else is masked.
  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    const status = typeof error?.status === 'number' ? error.status : 500;
    if (status >= 400 && status < 500) {
      return sendDoorError(req, res, unreadableBody(error?.type, GRAPHQL_BODY_LIMIT, error?.body));
    }
    sendUnexpectedError(res, doorOf(req, res), error, deps, req.path);
  };
  app.use(onError);

  return {
    app,
    apollo,
    subscriptions,
    executorStats: jit.stats,
    policies,
    startDraining: () => {
      draining = true;
    },
    stop: async () => {
      await subscriptions.close();
      await apollo.stop();
      await running?.close();
      store.close();
    },
  };
}
