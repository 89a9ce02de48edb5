// Everything a resolver may use, built once per request by createContext, for both doors (/graphql
// and the REST shim): the database, the request's DataLoaders, and who is calling.
import type { Logger } from 'pino';
import type { Db } from './db/knex.js';
import { isDatabaseUnavailable, serviceUnavailable } from './errors.js';
import { authenticate, type Authentication, type Credential } from './modules/auth/principal.js';
import type { TokenSettings } from './modules/auth/tokens.js';
import { createClerkLoaders } from './modules/clerks/loaders.js';
import { createMerchantLoaders } from './modules/merchants/loaders.js';
import { createPartnerLoaders } from './modules/partners/loaders.js';

export interface ServiceDeps {
  db: Db;
  logger: Logger;
  /** The clock; tests may pin it. */
  now: () => Date;
  /** How access tokens are signed and how long they live. */
  tokens: TokenSettings;
}

function createLoaders(db: Db) {
  return {
    partners: createPartnerLoaders(db),
    merchants: createMerchantLoaders(db),
    clerks: createClerkLoaders(db),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;

export interface Context {
  db: Db;
  loaders: Loaders;
  auth: Authentication;
  credential: Credential;
  requestId: string;
  logger: Logger;
  now: () => Date;
}

export interface RequestInfo {
  credential: Credential;
  requestId: string;
}

/** Authenticates the request; a database that cannot be reached is SERVICE_UNAVAILABLE for both doors. */
async function authenticateRequest(deps: ServiceDeps, request: RequestInfo): Promise<Authentication> {
  try {
    return await authenticate(deps.db, request.credential, deps.tokens, deps.now());
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    deps.logger.warn({ err: error, requestId: request.requestId }, 'database unavailable while authenticating');
    throw serviceUnavailable();
  }
}

export async function createContext(deps: ServiceDeps, request: RequestInfo): Promise<Context> {
  return {
    db: deps.db,
    loaders: createLoaders(deps.db),
    auth: await authenticateRequest(deps, request),
    credential: request.credential,
    requestId: request.requestId,
    logger: deps.logger.child({ requestId: request.requestId }),
    now: deps.now,
  };
}
