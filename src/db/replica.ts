// A streaming read replica (DATABASE_REPLICA_URL): a second pool whose statements fall back to the
// primary when the replica fails under them, and a monitor that says, about once a second, whether
// the replica is up and how far behind it is. What runs where is decided above (context.ts and the
// read-routing plugin); this file only knows the replica and the primary.
import knex from 'knex';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../kernel/errors.js';
import type { Db } from './knex.js';
import { PreparingPgClient } from './prepared.js';
import { pgTypes } from './types.js';

type ReplicaState = 'ok' | 'lagging' | 'down';

interface ReplicaStatus {
  state: ReplicaState;
  /** Seconds the replica is behind (0 when caught up); null when down. */
  lagSeconds: number | null;
  /** The last WAL position the monitor saw the replica replay; null when down. */
  replayedLsn: bigint | null;
}

export interface ReadReplica {
  /** The replica's pool: a statement whose replica connection fails is run on the primary instead. */
  db: Db;
  maxLagSeconds: number;
  status(): ReplicaStatus;
  /** May reads go to the replica now, for a caller whose last write was at `writtenLsn` (null: none known)? */
  serves(writtenLsn: string | null): boolean;
  /** One check of the replica now (the monitor runs it every pollMs). */
  poll(): Promise<ReplicaStatus>;
  /** Stops the monitor and closes the replica's pools (not the primary's). */
  stop(): Promise<void>;
}

interface ReadReplicaOptions {
  url: string;
  primary: Db;
  maxLagSeconds: number;
  /** How often the monitor checks the replica (default 1000 ms). */
  pollMs?: number;
  poolMax?: number;
  statementTimeoutMs?: number;
  /** Named prepared statements on the replica's pool (default true; off when it is reached through a transaction pooler). */
  preparedStatements?: boolean;
  logger?: Logger;
  /** Hears each statement the replica failed and the primary ran instead. */
  onFallback?: () => void;
}

/** A pg_lsn as text ("16/B374D848") as a number, for comparing positions. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  if (high === undefined || low === undefined) throw new Error(`not an LSN: ${text}`);
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

const RECOVERY_CONFLICT = new Set(['40001', '40P01']);

/**
 * A failure of the replica rather than of the statement: its connection (refused, reset, shut down by
 * an administrator), or a standby's recovery conflict. 57014 (statement timeout) is not: a runaway
 * statement is not run a second time on the primary.
 */
function isReplicaFailure(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (code === '57014') return false;
  // 25006: a write that reached the replica; the primary runs it correctly (and it is logged).
  if (typeof code === 'string' && (RECOVERY_CONFLICT.has(code) || code === '25006')) return true;
  return isDatabaseUnavailable(error);
}

interface Fallback {
  primary: Db;
  /** The replica failed under a statement (its connection is gone): mark it down. */
  failed: (error: unknown) => void;
  fellBack: () => void;
}

/**
 * knex's pg client for the replica. A connection it cannot get, or a statement whose connection fails,
 * is taken from (run on) the primary's pool, so a replica that dies under a read costs the reader
 * nothing. Inside a transaction nothing is rerun: a transaction's statements stay on one connection.
 */
function replicaClientClass(fallback: Fallback): typeof PreparingPgClient {
  // Primary connections lent to this client, to be given back to the primary's pool.
  const borrowed = new WeakSet<object>();
  const primaryClient = () => fallback.primary.client as unknown as ReplicaClientMethods;
  return class ReplicaPgClient extends PreparingPgClient {
    override async acquireConnection(): Promise<unknown> {
      try {
        return await super.acquireConnection();
      } catch (error) {
        if (!isReplicaFailure(error)) throw error;
        // A full pool (knex's acquire timeout) is load, not a dead replica: fall back without marking it down.
        if ((error as Error).name !== 'KnexTimeoutError') fallback.failed(error);
        const connection = (await primaryClient().acquireConnection()) as object;
        borrowed.add(connection);
        return connection;
      }
    }

    override releaseConnection(connection: unknown): Promise<void> {
      if (borrowed.delete(connection as object)) return primaryClient().releaseConnection(connection);
      return super.releaseConnection(connection);
    }

    override async _query(connection: unknown, query: unknown): Promise<unknown> {
      if (borrowed.has(connection as object)) {
        fallback.fellBack();
        return primaryClient()._query(connection, query);
      }
      try {
        return await super._query(connection, query as Parameters<PreparingPgClient['_query']>[1]);
      } catch (error) {
        // A transaction's client is knex's copy of this one, marked `transacting`: never rerun there.
        if ((this as { transacting?: boolean }).transacting || !isReplicaFailure(error)) throw error;
        if (isDatabaseUnavailable(error)) fallback.failed(error);
        fallback.fellBack();
        const primary = primaryClient();
        const lent = await primary.acquireConnection();
        try {
          return await primary._query(lent, query);
        } finally {
          await primary.releaseConnection(lent);
        }
      }
    }
  } as unknown as typeof PreparingPgClient;
}

interface ReplicaClientMethods {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<void>;
  _query(connection: unknown, query: unknown): Promise<unknown>;
}

/** A primary WAL position seen by the monitor, and when: the replica is behind since then until it replays it. */
interface PrimarySample {
  lsn: bigint;
  seenAt: number;
}

function replicaKnexLog(logger: Logger | undefined) {
  const debug = (message: unknown) =>
    logger?.debug({ knex: String(message), replica: true }, 'knex on the read replica');
  return { warn: debug, error: debug, deprecate: debug, debug };
}

// Samples kept while the replica is behind: a cap, so a replica days behind costs bounded memory.
const MAX_SAMPLES = 3600;

/**
 * Opens the replica's pool and starts its monitor. The replica counts as down until the first check
 * answers (and whenever a check fails or a statement's connection fails); it is lagging when the
 * oldest primary position it has not replayed was seen more than maxLagSeconds ago. Lag is measured
 * from the monitor's own samples of the primary's pg_current_wal_lsn(), not from the replica's
 * pg_last_xact_replay_timestamp(): after a quiet hour that timestamp is an hour old, and a replica a
 * second behind the first write would look an hour behind.
 */
export function openReadReplica(options: ReadReplicaOptions): ReadReplica {
  const pollMs = options.pollMs ?? 1000;
  const checkTimeoutMs = Math.max(1000, 2 * pollMs);
  let status: ReplicaStatus = { state: 'down', lagSeconds: null, replayedLsn: null };
  let samples: PrimarySample[] = [];

  const markDown = (reason: unknown) => {
    if (status.state !== 'down') options.logger?.warn({ err: reason }, 'read replica down: reads go to the primary');
    status = { state: 'down', lagSeconds: null, replayedLsn: null };
  };
  // knex's own warnings (a refused connection, a connection ended) are expected when the replica goes
  // away: the logger's, at debug level, since the fallback answers and markDown logs the one warning.
  const replicaLog = replicaKnexLog(options.logger);
  const connection = {
    connectionString: options.url,
    types: pgTypes,
    // A replica that does not answer is skipped quickly rather than waited for.
    connectionTimeoutMillis: checkTimeoutMs,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  };
  const db = knex({
    client: replicaClientClass({
      primary: options.primary,
      failed: markDown,
      fellBack: () => options.onFallback?.(),
    }) as unknown as typeof knex.Client,
    connection,
    pool: { min: 0, max: options.poolMax ?? 10 },
    acquireConnectionTimeout: checkTimeoutMs * 2,
    compileSqlOnError: false,
    log: replicaLog,
    // Read by PreparingPgClient (decisions.md 30).
    preparedStatements: options.preparedStatements ?? true,
  } as knex.Knex.Config);
  // The monitor's own connection: its checks must reach the replica itself, never fall back.
  const monitor = knex({
    client: 'pg',
    connection,
    pool: { min: 0, max: 1 },
    acquireConnectionTimeout: checkTimeoutMs,
    log: replicaLog,
  });

  async function check(): Promise<ReplicaStatus> {
    const primary = await options.primary.raw<{ rows: Array<{ lsn: string }> }>(
      'select pg_current_wal_lsn()::text as lsn',
    );
    const replica = await monitor.raw<{ rows: Array<{ recovering: boolean; replayed: string | null }> }>(
      'select pg_is_in_recovery() as recovering, pg_last_wal_replay_lsn()::text as replayed',
    );
    const row = replica.rows[0];
    // Not in recovery: promoted, no longer a copy of the primary; never read from it.
    if (!row?.recovering || row.replayed === null) throw new Error('the replica is not a standby in recovery');
    const now = Date.now();
    const primaryLsn = parseLsn(primary.rows[0]!.lsn);
    const replayed = parseLsn(row.replayed);
    const newest = samples[samples.length - 1];
    if (primaryLsn > replayed && (!newest || primaryLsn > newest.lsn) && samples.length < MAX_SAMPLES) {
      samples.push({ lsn: primaryLsn, seenAt: now });
    }
    samples = samples.filter((sample) => sample.lsn > replayed);
    const lagSeconds = samples.length ? (now - samples[0]!.seenAt) / 1000 : 0;
    return { state: lagSeconds > options.maxLagSeconds ? 'lagging' : 'ok', lagSeconds, replayedLsn: replayed };
  }

  let inFlight: Promise<ReplicaStatus> | null = null;
  const poll = (): Promise<ReplicaStatus> => {
    inFlight ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${checkTimeoutMs} ms`)), checkTimeoutMs);
      });
      const checking = check();
      checking.catch(() => undefined); // a late failure of an abandoned check
      try {
        const next = await Promise.race([checking, expired]);
        if (status.state === 'down') options.logger?.info({ lagSeconds: next.lagSeconds }, 'read replica up');
        else if (next.state !== status.state) {
          options.logger?.warn({ lagSeconds: next.lagSeconds, state: next.state }, 'read replica lag changed state');
        }
        status = next;
      } catch (error) {
        markDown(error);
      } finally {
        clearTimeout(timer);
        inFlight = null;
      }
      return status;
    })();
    return inFlight;
  };

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void poll().finally(schedule), pollMs);
    timer.unref();
  };
  void poll().finally(schedule);

  return {
    db,
    maxLagSeconds: options.maxLagSeconds,
    status: () => status,
    serves(writtenLsn) {
      if (status.state !== 'ok' || status.replayedLsn === null) return false;
      return writtenLsn === null || status.replayedLsn >= parseLsn(writtenLsn);
    },
    poll,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight?.catch(() => undefined);
      await Promise.all([db.destroy(), monitor.destroy()]);
    },
  };
}
