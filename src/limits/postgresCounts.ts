// The request limits' counts in the service's Postgres database (the rate_limits table), in our own
// SQL rather than rate-limiter-flexible's Postgres store. The library runs one statement per counter
// and call; a credentialed request asks two counters (its address's failed authentications, then
// its key's count), and every statement costs the request a socket write and a round trip (about a
// twentieth of a lookup's CPU each, in the bench's profiles). Here the two are one statement
// (admitKey). The table keeps the library's row shape (key "<limit>:<id>", points, expire in epoch
// ms), and the windows its semantics: a window starts at a key's first event; the event past the
// limit, where the limit blocks, moves the window's end to a whole window from then.
import type { Db } from '../db/knex.js';
import type { WindowCount, WindowCounter } from './windowCounts.js';

/** The table of migration 20261125000100_rate_limits. */
export const RATE_LIMIT_TABLE = 'rate_limits';

/** One limit's settings as this store counts it. */
export interface PostgresLimit {
  /** The keys' prefix: the limit's name. */
  name: string;
  limit: number;
  windowMs: number;
  /** Past the limit the key is refused for this long from its first refusal (0: only until its window ends). */
  blockMs: number;
}

/** What of a pg connection this needs. */
interface PgConnection {
  query(query: { name: string; text: string; values: unknown[] }): Promise<{ rows: Array<Record<string, unknown>> }>;
}

interface StoreRow {
  points: number;
  expire: string | number | null;
}

/**
 * The upsert every count runs, its parameters after `first`: the key, the time now (ms), the window's
 * end for a new window, the limit and the block's end. An ended window starts afresh at 1; an event
 * that crosses the limit, on a limit that blocks, ends its window at the block's end.
 */
const upsert = (source: string, first: number) => {
  const [key, now, newExpire, limit, blockedUntil] = [0, 1, 2, 3, 4].map((i) => `$${first + i}`);
  return `insert into ${RATE_LIMIT_TABLE} as r (key, points, expire)
    select ${key}::varchar, 1, ${newExpire}::int8 ${source}
    on conflict (key) do update set
      points = case when r.expire <= ${now}::int8 then 1 else r.points + 1 end,
      expire = case when r.expire <= ${now}::int8 then ${newExpire}::int8
                    when ${blockedUntil}::int8 is not null and r.points + 1 = ${limit}::int4 + 1 then ${blockedUntil}::int8
                    else r.expire end
    returning points, expire`;
};

const COUNT_SQL = upsert('', 1);
const PEEK_SQL = `select points, expire from ${RATE_LIMIT_TABLE} where key = $1 and (expire > $2 or expire is null)`;
// The address's failures (when they reach their limit, the request is refused and nothing counted),
// then the key's request, counted only when the address is not blocked.
const ADMIT_KEY_SQL = `with blocked as (
    select expire from ${RATE_LIMIT_TABLE}
    where key = $1 and (expire > $2 or expire is null) and points >= $3
  ), counted as (
    ${upsert('where not exists (select from blocked)', 4)}
  )
  select (select expire from blocked) as blocked_until, counted.points, counted.expire
  from (select 1) as request left join counted on true`;
const SWEEP_SQL = `delete from ${RATE_LIMIT_TABLE} where expire < $1`;

/** What admitKey decided: the address's block, or the key's count. */
export type KeyAdmission =
  | { blocked: true; msBeforeNext: number }
  | { blocked: false; count: WindowCount & { allowed: boolean } };

const msUntil = (expire: string | number | null, now: number) =>
  expire === null ? 0 : Math.max(0, Number(expire) - now);

/**
 * The rate_limits table's counts. Its statements run on a connection of the service's pool, outside
 * knex's query events (like the library's before it): the statement budgets pin each route's own SQL.
 */
export class PostgresCounts {
  constructor(private readonly db: Db) {}

  private async run(name: string, text: string, values: unknown[]): Promise<StoreRow[]> {
    const client = this.db.client as unknown as {
      acquireConnection(): Promise<PgConnection>;
      releaseConnection(connection: PgConnection): Promise<unknown>;
    };
    const connection = await client.acquireConnection();
    try {
      return (await connection.query({ name, text, values })).rows as unknown as StoreRow[];
    } finally {
      await client.releaseConnection(connection);
    }
  }

  private countValues(limit: PostgresLimit, id: string, now: number): unknown[] {
    return [
      `${limit.name}:${id}`,
      now,
      now + limit.windowMs,
      limit.limit,
      limit.blockMs > 0 ? now + limit.blockMs : null,
    ];
  }

  /** One limit's counter over this table. */
  counter(limit: PostgresLimit): WindowCounter {
    const count = async (id: string): Promise<WindowCount> => {
      const now = Date.now();
      const [row] = await this.run('dfs_limit_count', COUNT_SQL, this.countValues(limit, id, now));
      return { consumed: row!.points, msBeforeNext: msUntil(row!.expire, now) };
    };
    return {
      consume: async (id) => {
        const counted = await count(id);
        return { ...counted, allowed: counted.consumed <= limit.limit };
      },
      add: count,
      peek: async (id) => {
        const now = Date.now();
        const [row] = await this.run('dfs_limit_peek', PEEK_SQL, [`${limit.name}:${id}`, now]);
        return row ? { consumed: row.points, msBeforeNext: msUntil(row.expire, now) } : null;
      },
    };
  }

  /**
   * In one statement: whether `address` has reached `failures`' limit (then nothing is counted), and
   * otherwise one request of key `keyId` counted against `requests`.
   */
  async admitKey(
    failures: PostgresLimit,
    address: string | null,
    requests: PostgresLimit,
    keyId: string,
  ): Promise<KeyAdmission> {
    const now = Date.now();
    // No address known: a key no row has, so nothing blocks.
    const addressKey = address === null ? '' : `${failures.name}:${address}`;
    const [row] = await this.run('dfs_limit_admit_key', ADMIT_KEY_SQL, [
      addressKey,
      now,
      failures.limit,
      ...this.countValues(requests, keyId, now),
    ]);
    const { blocked_until: blockedUntil, points, expire } = row as StoreRow & { blocked_until: string | null };
    if (points === null) return { blocked: true, msBeforeNext: msUntil(blockedUntil, now) };
    const consumed = Number(points);
    return {
      blocked: false,
      count: { consumed, msBeforeNext: msUntil(expire, now), allowed: consumed <= requests.limit },
    };
  }

  /** Deletes, every five minutes, the rows whose window ended an hour ago (as the library's sweep did). */
  startSweeping(): void {
    // Unreferenced: it never keeps the process alive; a failed sweep is retried at the next.
    setInterval(() => {
      this.run('dfs_limit_sweep', SWEEP_SQL, [Date.now() - 3_600_000]).catch(() => undefined);
    }, 300_000).unref();
  }
}
