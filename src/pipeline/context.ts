// Everything a resolver may use, built once per request by createContext, for both doors (/graphql
// and the REST shim): the databases, the operation's reads and DataLoaders, and who is calling. A
// context is never changed once built: a page of a list or a subscription gets a new one.
import type { Logger } from 'pino';
import type { Db } from '../db/knex.js';
import type { ReadAhead } from '../db/readAhead.js';
import type { ReadReplica } from '../db/replica.js';
import { isDatabaseUnavailable, serviceUnavailable } from '../kernel/errors.js';
import { type Authentication, authenticateCredential, type Credential } from '../modules/auth/principal.js';
import type { TokenSettings } from '../modules/auth/tokens.js';
import { createCartLoaders } from '../modules/carts/loaders.js';
import { createClerkLoaders } from '../modules/clerks/loaders.js';
import { createCustomerLoaders } from '../modules/customers/loaders.js';
import { createDeviceLoaders } from '../modules/devices/loaders.js';
import type { LiveConnection } from '../modules/events/stream.js';
import { createFinanceOrderLoaders } from '../modules/financeOrders/loaders.js';
import { createMerchantLoaders } from '../modules/merchants/loaders.js';
import { createPartnerLoaders } from '../modules/partners/loaders.js';
import { PartnerPolicies } from '../modules/partners/policies.js';
import { createPaymentLoaders } from '../modules/payments/loaders.js';
import { type PaymentObserver, UNOBSERVED } from '../modules/payments/observe.js';
import { createTimelineLoaders } from '../modules/timeline/loaders.js';
import type { UnlockKeySealer } from '../modules/unlockCodes/sealing.js';
import { createPaymentVendorLoaders } from '../modules/vendors/loaders.js';
import { createWebhookLoaders } from '../modules/webhooks/loaders.js';
import {
  type CredentialLimits,
  credentialLimitsFor,
  type KeyQuota,
  type RequestLimiter,
} from './rateLimits/requestLimits.js';

export interface ServiceDeps {
  db: Db;
  logger: Logger;
  /** The clock; tests may pin it. */
  now: () => Date;
  /** How access tokens are signed and how long they live. */
  tokens: TokenSettings;
  /** Seals and opens the devices' unlock keys at rest (DEVICE_UNLOCK_SEALING_KEYS, decisions.md 35). */
  unlockKeys: UnlockKeySealer;
  /** Requests per key and failed authentications per address, shared or in memory; createApp builds it. Absent: no limits. */
  limiter?: RequestLimiter;
  /** Hears what became of each payment request (createApp installs the metrics); absent: nothing observes. */
  observe?: PaymentObserver;
  /** Production rules apply (webhook URLs: https only, public addresses only); false when absent. */
  production?: boolean;
  /** The ports production webhook URLs may name (WEBHOOK_ALLOWED_PORTS); 443 alone when absent. */
  webhookAllowedPorts?: readonly number[];
  /** A streaming read replica (DATABASE_REPLICA_URL) for queries; absent: everything on `db`. */
  replica?: ReadReplica;
  /** The partners' lock policies and sandbox clocks, kept current (createApp starts them); absent: defaults, real time. */
  policies?: PartnerPolicies;
  /**
   * The database is distributed by partner (Citus, decisions.md 48): a partner's write that is one
   * statement elsewhere goes as a transaction of statements each pinned to the partner. False when absent.
   */
  distributed?: boolean;
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
  webhooks: (db: Db) => createWebhookLoaders(db),
  timeline: (db: Db) => createTimelineLoaders(db),
};

type LoaderModule = keyof typeof LOADER_MODULES;

/** The request's DataLoaders, by module. */
type Loaders = { readonly [Module in LoaderModule]: ReturnType<(typeof LOADER_MODULES)[Module]> };

/**
 * The request's DataLoaders, each module's built the first time a resolver reads it. A request reads
 * through a few modules of the eleven, and building all 22 loaders for every request, every page of a
 * list and every mutation (OperationReads.forget) cost about 45 µs of CPU each time, measured in process.
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

/**
 * Where one operation reads, and its DataLoaders over that database: the one part of a context that is
 * settled after the context is built, since a door authenticates before it knows the operation. The
 * database is chosen once (choose: readRouting, when the operation is resolved; otherwise the primary,
 * at the first read) and never changes after. Each operation has its own (a page of a list, a
 * subscription: fresh()), so what one forgets no other operation sees. After each mutation the loaders'
 * cache is dropped (forget: what the mutation changed must be read again); that is this holder's only
 * change, observed only by this operation's later reads.
 */
export class OperationReads {
  #db: Db | undefined;
  #loaders: Loaders | undefined;
  /** `replica`: the replica this request may read, decided once it is authenticated (createContext); else null. */
  constructor(
    private readonly primary: Db,
    private readonly replica: Db | null,
  ) {}

  /**
   * Settles where the operation reads: the replica for a query when the request may use it, else the
   * primary (a mutation, and anything it checks). Says whether it is the replica. Once, before any read.
   */
  choose(query: boolean): boolean {
    const chosen = query && this.replica ? this.replica : this.primary;
    if (this.#db !== undefined && this.#db !== chosen) throw new Error("an operation's reads were settled already");
    this.#db = chosen;
    return chosen !== this.primary;
  }

  /** The database this operation reads (the primary unless choose said otherwise before the first read). */
  get db(): Db {
    this.#db ??= this.primary;
    return this.#db;
  }

  /** This operation's loaders over its database, built module by module on first use (RequestLoaders). */
  get loaders(): Loaders {
    this.#loaders ??= newLoaders(this.db);
    return this.#loaders;
  }

  /** Drops every row cached: after a mutation, two payments in one request must not show the first one's balance for the second. */
  forget(): void {
    this.#loaders = undefined;
  }

  /** Another operation's reads over the same databases, not settled yet, sharing no cached row with these. */
  fresh(): OperationReads {
    return new OperationReads(this.primary, this.replica);
  }
}

export interface Context {
  /** The primary: every write, every check a mutation makes, and the reads of a subscription. */
  readonly primary: Db;
  /** Where this operation reads (the replica for a query, when the request may) and its loaders. */
  readonly reads: OperationReads;
  readonly auth: Authentication;
  readonly credential: Credential;
  readonly requestId: string;
  /** The client's address as Express sees it (req.ip): failed-auth limits and the audit trail. */
  readonly clientAddress: string | null;
  /** The request limits for a credential looked up later (createAccessToken's apiKey argument). */
  readonly credentialLimits: CredentialLimits;
  readonly logger: Logger;
  /** Real time: keys, tokens, limits, idempotency lifetimes (decisions.md 15). */
  readonly now: () => Date;
  /**
   * Each partner's policy as this instance knows it (no statement): its time (nowFor: its sandbox
   * clock outside production), which everything of a partner's data reads, and its settings.
   */
  readonly partnerPolicies: PartnerPolicies;
  readonly tokens: TokenSettings;
  /** Seals a new credential's unlock key and opens one for a payment's unlock code (decisions.md 35). */
  readonly unlockKeys: UnlockKeySealer;
  /** The port through which the domain reports outcomes (payments recorded, replayed, refused). */
  readonly observe: PaymentObserver;
  /** The WebSocket door's connection, for subscriptions; absent on HTTP. */
  readonly live?: LiveConnection;
  /** Production rules apply (webhook URLs: https only, public addresses only). */
  readonly production: boolean;
  /** The database is distributed by partner (ServiceDeps.distributed). */
  readonly distributed: boolean;
  /** The ports production webhook URLs may name (WEBHOOK_ALLOWED_PORTS). */
  readonly webhookAllowedPorts: readonly number[];
  /** Aborted once the caller has gone away (a streamed list's pages): a long read may stop then. */
  readonly signal?: AbortSignal;
  /** A page of a list read whole (a streamed list's pages): where a page may leave the next one's read. */
  readonly readAhead?: ReadAhead;
}

/**
 * One page of a list answer: a new context, the request's, with reads of its own (each page an
 * operation: pages read side by side never share, nor forget, each other's cached reads), the signal
 * that the client has gone, and the list's read-ahead, shared by its pages.
 */
export function pageContext(ctx: Context, signal: AbortSignal, readAhead: ReadAhead): Context {
  return { ...ctx, reads: ctx.reads.fresh(), signal, readAhead };
}

interface RequestInfo {
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

/** The policies of deps that started none: the defaults and real time, for every partner. */
const defaultPolicies = new WeakMap<() => Date, PartnerPolicies>();
function policiesOf(deps: ServiceDeps): PartnerPolicies {
  if (deps.policies) return deps.policies;
  let policies = defaultPolicies.get(deps.now);
  if (!policies) {
    policies = new PartnerPolicies(deps.now, true);
    defaultPolicies.set(deps.now, policies);
  }
  return policies;
}

export async function createContext(deps: ServiceDeps, request: RequestInfo): Promise<Context> {
  const credentialLimits = credentialLimitsFor(deps.limiter, request.clientAddress ?? null, request.onQuota);
  const auth = await authenticateRequest(deps, request, credentialLimits);
  const writtenLsn = auth.principal ? (auth.writtenLsn ?? null) : null;
  // The request's child logger, made when a resolver first writes a line: most requests write none.
  let logger: Logger | undefined;
  return {
    primary: deps.db,
    // The replica only when it is up, close enough behind, and has replayed the caller's last write.
    reads: new OperationReads(deps.db, deps.replica?.serves(writtenLsn) ? deps.replica.db : null),
    auth,
    credential: request.credential,
    requestId: request.requestId,
    clientAddress: request.clientAddress ?? null,
    credentialLimits,
    get logger() {
      logger ??= deps.logger.child({ requestId: request.requestId });
      return logger;
    },
    now: deps.now,
    partnerPolicies: policiesOf(deps),
    tokens: deps.tokens,
    unlockKeys: deps.unlockKeys,
    observe: deps.observe ?? UNOBSERVED,
    production: deps.production ?? false,
    distributed: deps.distributed ?? false,
    webhookAllowedPorts: deps.webhookAllowedPorts ?? [443],
  };
}
