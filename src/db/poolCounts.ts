// How busy the database pool is, read from knex's pool (tarn): the metrics' gauges show it, and the
// webhook worker holds back while requests wait for a connection. The embedded database's pool is
// knex's too (one connection).
import type { Db } from './knex.js';

interface PoolCounts {
  /** Connections lent out. */
  used: number;
  /** Connections idle in the pool. */
  free: number;
  /** Callers waiting for a connection. */
  pending: number;
}

/** The part of tarn's pool read here. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/** The pool's counts now; null before knex has made its pool (it does on the first query). */
export function poolCounts(db: Db): PoolCounts | null {
  const pool = (db.client as { pool?: TarnPool }).pool;
  if (!pool) return null;
  return { used: pool.numUsed(), free: pool.numFree(), pending: pool.numPendingAcquires() };
}

/** Callers waiting for a connection of `db`'s pool now (0 before knex has made it): the requests' queue. */
export function connectionWaiters(db: Db): number {
  return poolCounts(db)?.pending ?? 0;
}
