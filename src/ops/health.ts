// Health endpoints for orchestrators and load balancers. /healthz: the process is up (no database, no
// auth). /readyz: this instance can serve now: its database answers and its schema is current.
import type { RequestHandler } from 'express';
import type { Db } from '../db/knex.js';
import { pendingMigrations } from '../db/migrate.js';
import type { ReadReplica } from '../db/replica.js';

/** A probe must answer before the prober gives up: a database that does not answer in time is unreachable. */
const READINESS_TIMEOUT_MS = 2000;

export const serveLiveness: RequestHandler = (_req, res) => {
  res.set('Cache-Control', 'no-store').json({ status: 'ok' });
};

export interface Readiness {
  /** draining: SIGTERM was received; the instance finishes its requests and stops taking new ones. */
  status: 'ready' | 'not ready' | 'draining';
  database: 'ok' | 'unreachable';
  migrations: string;
  /**
   * Where the request limits are counted: `shared (postgres|redis)`, `memory` (embedded database), or
   * `insurance (...)` while the shared store fails; the instance still serves, so it stays ready.
   */
  rateLimitStore?: string;
  /** The read replica: it never makes the instance unready (reads go to the primary without it). */
  replica?: string;
}

/** "ok", "lagging 12 s", "down", or "none" without DATABASE_REPLICA_URL. */
function describeReplica(replica: ReadReplica | undefined): string {
  if (!replica) return 'none';
  const status = replica.status();
  if (status.state === 'lagging') return `lagging ${Math.round(status.lagSeconds ?? 0)} s`;
  return status.state;
}

class ProbeTimeout extends Error {}

function withinTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout(`no answer within ${ms} ms`)), ms);
  });
  work.catch(() => undefined); // a late failure of the abandoned query is not an unhandled rejection
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/**
 * One statement per probe once the schema was found current: migrations only arrive with new code,
 * which is a new process, so "current" is remembered; "pending" is checked again on every probe.
 */
function createReadinessCheck(db: Db, timeoutMs = READINESS_TIMEOUT_MS): () => Promise<Readiness> {
  let migrationsCurrent = false;
  return async () => {
    try {
      await withinTimeout(db.raw('select 1'), timeoutMs);
    } catch {
      return { status: 'not ready', database: 'unreachable', migrations: 'unknown' };
    }
    if (!migrationsCurrent) {
      let pending: string[];
      try {
        pending = await withinTimeout(pendingMigrations(db), timeoutMs);
      } catch {
        return { status: 'not ready', database: 'ok', migrations: 'unknown' };
      }
      if (pending.length) return { status: 'not ready', database: 'ok', migrations: `pending: ${pending.join(', ')}` };
      migrationsCurrent = true;
    }
    return { status: 'ready', database: 'ok', migrations: 'current' };
  };
}

interface ReadinessReporters {
  /** True once the process was told to stop (main.ts): 503 "draining", so a balancer takes the instance out. */
  draining?: () => boolean;
  /** Where the request limits are counted now (RequestLimiter.storeStatus). */
  rateLimitStore?: () => string;
  /** The read replica, if one is configured: reported, never a reason to be unready. */
  replica?: ReadReplica;
}

export function serveReadiness(db: Db, reporters: ReadinessReporters = {}): RequestHandler {
  const check = createReadinessCheck(db);
  return async (_req, res) => {
    const checked = await check();
    const readiness: Readiness = reporters.draining?.() ? { ...checked, status: 'draining' } : checked;
    if (reporters.rateLimitStore) readiness.rateLimitStore = reporters.rateLimitStore();
    readiness.replica = describeReplica(reporters.replica);
    res
      .status(readiness.status === 'ready' ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json(readiness);
  };
}
