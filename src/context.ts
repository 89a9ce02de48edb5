// Everything a resolver may use, built once per request by createContext, for both doors (/graphql
// and the REST shim): the database, the request's DataLoaders, and who is calling.
import type { Logger } from 'pino';
import type { Db } from './db/knex.js';
import type { ReadAhead } from './db/readAhead.js';
import type { ReadReplica } from './db/replica.js';
import { isDatabaseUnavailable, serviceUnavailable } from './errors.js';
import {
  type CredentialLimits,
  credentialLimitsFor,
  type KeyQuota,
  type RequestLimiter,
} from './limits/requestLimits.js';
import { type Authentication, authenticateCredential, type Credential } from './modules/auth/principal.js';
import type { TokenSettings } from './modules/auth/tokens.js';
import { createCartLoaders } from './modules/carts/loaders.js';
import { createClerkLoaders } from './modules/clerks/loaders.js';
import { createCustomerLoaders } from './modules/customers/loaders.js';
import { createDeviceLoaders } from './modules/devices/loaders.js';
import type { EventObserver } from './modules/events/observe.js';
import type { LiveConnection } from './modules/events/stream.js';
import { createFinanceOrderLoaders } from './modules/financeOrders/loaders.js';
import { createMerchantLoaders } from './modules/merchants/loaders.js';
import { createPartnerLoaders } from './modules/partners/loaders.js';
import { createPaymentLoaders } from './modules/payments/loaders.js';
import { type PaymentObserver, UNOBSERVED } from './modules/payments/observe.js';
import { createTransactionLoaders } from './modules/transactions/loaders.js';
import { createPaymentVendorLoaders } from './modules/vendors/loaders.js';
import { createWebhookLoaders } from './modules/webhooks/loaders.js';

export interface ServiceDeps {
  db: Db;
  logger: Logger;
  /** The clock; tests may pin it. */
  now: () => Date;
  /** How access tokens are signed and how long they live. */
  tokens: TokenSettings;
  /** Requests per key and failed authentications per address, shared or in memory; createApp builds it. Absent: no limits. */
  limiter?: RequestLimiter;
  /** Hears what became of each payment request (createApp installs the metrics); absent: nothing observes. */
  observe?: PaymentObserver & EventObserver;
  /** Production rules apply (webhook URLs: https only, public addresses only); false when absent. */
  production?: boolean;
  /** The ports production webhook URLs may name (WEBHOOK_ALLOWED_PORTS); 443 alone when absent. */
  webhookAllowedPorts?: readonly number[];
  /** A streaming read replica (DATABASE_REPLICA_URL) for queries; absent: everything on `db`. */
  replica?: ReadReplica;
}

/** How each module's loaders are built: one line per module (src/modules/<domain>/loaders.ts). */
const LOADER_MODULES = {
  partners: (db: Db) => createPartnerLoaders(db),
  merchants: (db: Db) => createMerchantLoaders(db),
  clerks: (db: Db) => createClerkLoaders(db),
  customers: (db: Db) => createCustomerLoaders(db),
  devices: (db: Db) => createDeviceLoaders(db),
  carts: (db: Db) => createCartLoaders(db),
  // Orders read together with their devices prime the device loader.
  financeOrders: (db: Db, loaders: { devices: ReturnType<typeof createDeviceLoaders> }) =>
    createFinanceOrderLoaders(db, loaders.devices),
  payments: (db: Db) => createPaymentLoaders(db),
  paymentVendors: (db: Db) => createPaymentVendorLoaders(db),
  transactions: (db: Db) => createTransactionLoaders(db),
  webhooks: (db: Db) => createWebhookLoaders(db),
};

type LoaderModule = keyof typeof LOADER_MODULES;

/** The request's DataLoaders, by module. */
export type Loaders = { readonly [Module in LoaderModule]: ReturnType<(typeof LOADER_MODULES)[Module]> };

/**
 * The request's DataLoaders, each module's built the first time a resolver reads it. A request reads
 * through a few modules of the eleven, and building all 23 loaders for every request, every page of a
 * list and every mutation (forgetCachedReads) cost about 45 µs of CPU each time, measured in process.
 */
class RequestLoaders {
  readonly built = new Map<LoaderModule, unknown>();
  constructor(readonly db: Db) {}
}
for (const [module, build] of Object.entries(LOADER_MODULES) as Array<
  [LoaderModule, (db: Db, loaders: Loaders) => unknown]
>) {
  Object.defineProperty(RequestLoaders.prototype, module, {
    get(this: RequestLoaders) {
      let loaders = this.built.get(module);
      if (loaders === undefined) {
        loaders = build(this.db, this as unknown as Loaders);
        this.built.set(module, loaders);
      }
      return loaders;
    },
  });
}

/** A request's loaders, none built yet. */
const newLoaders = (db: Db) => new RequestLoaders(db) as unknown as Loaders;

export interface Context {
  /** The primary; a query's resolvers read the replica here instead once readFromReplica moved them. */
  db: Db;
  loaders: Loaders;
  /**
   * The replica this request's reads may use, decided once it is authenticated: null without a
   * replica, when it is down or lagging, or when the caller's last write is not replayed there yet.
   */
  readReplica: Db | null;
  auth: Authentication;
  credential: Credential;
  requestId: string;
  /** The client's address as Express sees it (req.ip): failed-auth limits and the audit trail. */
  clientAddress: string | null;
  /** The request limits for a credential looked up later (createAccessToken's apiKey argument). */
  credentialLimits: CredentialLimits;
  logger: Logger;
  now: () => Date;
  tokens: TokenSettings;
  /** The port through which the domain reports outcomes (payments recorded, replayed, refused). */
  observe: PaymentObserver & EventObserver;
  /** The WebSocket door's connection, for subscriptions; absent on HTTP. */
  live?: LiveConnection;
  /** Production rules apply (webhook URLs: https only, public addresses only). */
  production: boolean;
  /** The ports production webhook URLs may name (WEBHOOK_ALLOWED_PORTS). */
  webhookAllowedPorts: readonly number[];
  /** Aborted once the caller has gone away (a streamed list's pages): a long read may stop then. */
  signal?: AbortSignal;
  /** A page of a list read whole (a streamed list's pages): where a page may leave the next one's read. */
  readAhead?: ReadAhead;
}

/**
 * Drops every row this request's loaders cached: after a mutation, what it changed must be read
 * again (two payments in one request must not show the first one's balance for the second).
 */
export function forgetCachedReads(ctx: Context): void {
  ctx.loaders = newLoaders(ctx.db);
}

/**
 * One page of a list answer: the request's context with loaders of its own, so pages read side by
 * side never share, nor forget, each other's cached reads, the signal that the client has gone, and
 * the list's read-ahead, shared by its pages.
 */
export function pageContext(ctx: Context, signal: AbortSignal, readAhead: ReadAhead): Context {
  return { ...ctx, loaders: newLoaders(ctx.db), signal, readAhead };
}

/**
 * Moves a read-only operation's reads (ctx.db and fresh loaders) to the replica when the request may
 * use it; says whether it did. Only for queries: a mutation, and anything it checks, stays on the primary.
 */
export function readFromReplica(ctx: Context): boolean {
  if (!ctx.readReplica) return false;
  if (ctx.db !== ctx.readReplica) {
    ctx.db = ctx.readReplica;
    ctx.loaders = newLoaders(ctx.db);
  }
  return true;
}

export interface RequestInfo {
  credential: Credential;
  /** The route reads its credential from the body (POST /payments/v1/token): not an anonymous request. */
  credentialInBody?: boolean;
  requestId: string;
  clientAddress?: string | null;
  /** Hears the quota of each API key the request is charged to (refused or not): the door's RateLimit headers. */
  onQuota?: (quota: KeyQuota) => void;
}

/**
 * Authenticates the request, under the request limits for both doors: a credential from an address
 * that failed too often is refused (429) without being looked up; a failure counts against the
 * address, a request against its key (429 past the limit), in authenticateCredential. A database
 * that cannot be reached is SERVICE_UNAVAILABLE.
 */
async function authenticateRequest(
  deps: ServiceDeps,
  request: RequestInfo,
  limits: CredentialLimits,
): Promise<Authentication> {
  // Anyone may send a document to be parsed and validated: without a credential, an address's count is limited.
  if (!request.credential.value && !request.credentialInBody) await limits.anonymous();
  try {
    // Always on the primary: a key created or revoked a moment ago counts at once. With a replica the
    // same statement reads where the key last wrote.
    const authDeps = {
      db: deps.db,
      tokens: deps.tokens,
      now: deps.now(),
      accounting: limits,
      withWrites: deps.replica !== undefined,
    };
    return await authenticateCredential(authDeps, request.credential);
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    deps.logger.warn({ err: error, requestId: request.requestId }, 'database unavailable while authenticating');
    throw serviceUnavailable();
  }
}

export async function createContext(deps: ServiceDeps, request: RequestInfo): Promise<Context> {
  const credentialLimits = credentialLimitsFor(deps.limiter, request.clientAddress ?? null, request.onQuota);
  const auth = await authenticateRequest(deps, request, credentialLimits);
  const writtenLsn = auth.principal ? (auth.writtenLsn ?? null) : null;
  return {
    db: deps.db,
    loaders: newLoaders(deps.db),
    readReplica: deps.replica?.serves(writtenLsn) ? deps.replica.db : null,
    auth,
    credential: request.credential,
    requestId: request.requestId,
    clientAddress: request.clientAddress ?? null,
    credentialLimits,
    logger: deps.logger.child({ requestId: request.requestId }),
    now: deps.now,
    tokens: deps.tokens,
    observe: deps.observe ?? UNOBSERVED,
    production: deps.production ?? false,
    webhookAllowedPorts: deps.webhookAllowedPorts ?? [443],
  };
}
