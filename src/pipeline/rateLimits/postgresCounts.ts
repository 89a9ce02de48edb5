// The request limits' counts in the service's Postgres database (the rate_limits table), in our own
// SQL rather than rate-limiter-flexible's Postgres store. The library runs one statement per counter
// and call; a credentialed request asks two counters (its address's failed authentications, then
// its key's count), and every statement costs the request a socket write and a round trip (about a
// twentieth of a lookup's CPU each, in the bench's profiles). Here the two are one statement
// (admitKey). The table keeps the library's row shape (key "<limit>:<id>", points, expire in epoch
// ms), and the windows its semantics: a window starts at a key's first event; the event past the
// limit, where the limit blocks, moves the window's end to a whole window from then.
import type { Knex } from 'knex';
import type { Db } from '../../db/knex.js';
import { runText, type ShapedStatement, shapeText } from '../../db/prepared.js';
import { turnBatchesPerDatabase } from '../../db/turnBatches.js';
import type { KeyAdmission, LookupAnswer } from './rateLimitStore.js';
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
 * The upsert every count runs: `key` is the row's key (an expression), `source` what the row is
 * selected from, `p` the positions of its parameters: the time now (ms), the window's end for a new
 * window, the limit, the block's end (null: a limit that does not block) and the events counted
 * (more than one for a batch of requests, see lookUpAdmitting). An ended window starts afresh; the
 * count that crosses a blocking limit ends its window at the block's end.
 */
const upsert = (
  key: string,
  source: string,
  p: { now: number; newExpire: number; limit: number; blockedUntil: number; events: number },
) => {
  // The row's count before this one: nothing once its window has ended.
  const before = `case when r.expire <= $${p.now}::int8 then 0 else r.points end`;
  const blocks = `$${p.blockedUntil}::int8 is not null`;
  return `insert into ${RATE_LIMIT_TABLE} as r (key, points, expire)
    select ${key}, $${p.events}::int4,
      case when ${blocks} and $${p.events}::int4 > $${p.limit}::int4 then $${p.blockedUntil}::int8 else $${p.newExpire}::int8 end
    ${source}
    on conflict (key) do update set
      points = ${before} + excluded.points,
      expire = case when ${blocks} and ${before} <= $${p.limit}::int4 and ${before} + excluded.points > $${p.limit}::int4
                      then $${p.blockedUntil}::int8
                    when r.expire <= $${p.now}::int8 then $${p.newExpire}::int8
                    else r.expire end
    returning points, expire`;
};

// $1 the key, then the count's parameters.
const COUNT_SQL = upsert('$1::varchar', '', { now: 2, newExpire: 3, limit: 4, blockedUntil: 5, events: 6 });
const PEEK_SQL = `select points, expire from ${RATE_LIMIT_TABLE} where key = $1 and (expire > $2 or expire is null)`;

/**
 * The address's failures, when they have reached their limit ($1 its key, $2 the time now, $3 the
 * limit); then the key's requests, counted only when the address is not blocked, for each row of
 * `keys` (a CTE with the key's `id`) with $n the counter's prefix and the count's parameters after it.
 */
const admitSql = (keys: string, n: number) => `blocked as (
    select expire from ${RATE_LIMIT_TABLE}
    where key = $1 and (expire > $2 or expire is null) and points >= $3
  ), counted as (
    ${upsert(`$${n}::text || ${keys}.id`, `from ${keys} where not exists (select from blocked)`, { now: 2, newExpire: n + 1, limit: n + 2, blockedUntil: n + 3, events: n + 4 })}
  )`;
const ADMIT_KEY_SQL = `with keys as (select $4::int8 as id), ${admitSql('keys', 5)}
  select (select expire from blocked) as blocked_until, counted.points, counted.expire
  from (select 1) as request left join counted on true`;
const SWEEP_SQL = `delete from ${RATE_LIMIT_TABLE} where expire < $1`;

/** A counted lookup waiting its turn: what lookUpAdmitting was given. */
interface CountedLookup {
  lookup: ShapedStatement;
  failures: PostgresLimit;
  address: string | null;
  requests: PostgresLimit;
}

const msUntil = (expire: string | number | null, now: number) =>
  expire === null ? 0 : Math.max(0, Number(expire) - now);

interface AdmissionColumns {
  blocked_until: string | null;
  points: number | null;
  expire: string | null;
}

/**
 * No count (points null): the address was blocked; else the key's count. `later` is how many requests
 * of the same count came after this one (a batch's: its members count in their order).
 */
function admissionOf(row: AdmissionColumns, requests: PostgresLimit, now: number, later = 0): KeyAdmission {
  if (row.points === null) return { blocked: true, msBeforeNext: msUntil(row.blocked_until, now) };
  const consumed = Number(row.points) - later;
  return {
    blocked: false,
    count: { consumed, msBeforeNext: msUntil(row.expire, now), allowed: consumed <= requests.limit },
  };
}

/**
 * The rate_limits table's counts. Their own statements run on a connection of the service's pool,
 * outside knex's query events (like the library's before them): the statement budgets pin each
 * route's own SQL. lookUpAdmitting's is the request's key statement, and runs as that one would.
 */
export class PostgresCounts {
  /** The fused statement's text by its lookup's text. */
  private readonly lookups = new Map<string, string>();
  /** The counted lookups taken in turns, by the database they run on. */
  private readonly batchesOn = turnBatchesPerDatabase((db: Knex, members: CountedLookup[]) =>
    this.lookUpBatch(db, members),
  );

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

  /** A count's parameters after its key: the window's end for a new window, the limit, the block's end, the events. */
  private countValues(limit: PostgresLimit, now: number, events = 1): unknown[] {
    return [now + limit.windowMs, limit.limit, limit.blockMs > 0 ? now + limit.blockMs : null, events];
  }

  /** One limit's counter over this table. */
  counter(limit: PostgresLimit): WindowCounter {
    const count = async (id: string): Promise<WindowCount> => {
      const now = Date.now();
      const [row] = await this.run('dfs_limit_count', COUNT_SQL, [
        `${limit.name}:${id}`,
        now,
        ...this.countValues(limit, now),
      ]);
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
    const [row] = await this.run('dfs_limit_admit_key', ADMIT_KEY_SQL, [
      ...this.admitValues(failures, address, now),
      keyId,
      `${requests.name}:`,
      ...this.countValues(requests, now),
    ]);
    return admissionOf(row as AdmissionColumns, requests, now);
  }

  /**
   * `lookup` (an API key by its hash) and admitKey for the key it finds, in one statement run where
   * `lookup` would run (knex's client: it is the request's key statement). Answers the key's row
   * (undefined when none) and, when there is one, its admission.
   *
   * Requests of one key from one address are taken in turns (db/turnBatches.ts): those that arrive while
   * its statement runs go together in the next, which counts them all (`events`) and answers each
   * its own place in the count, in their order of arrival. The count stays exact across instances;
   * what a busy key saves is the statements, each of which waits its turn on the key's one row.
   */
  lookUpAdmitting<Row extends { id: string }>(
    db: Knex,
    lookup: ShapedStatement,
    failures: PostgresLimit,
    address: string | null,
    requests: PostgresLimit,
  ): Promise<LookupAnswer<Row>> {
    // Lookups alike but for the time they are made go together (see lookUpBatch).
    // (Mapped before JSON.stringify, which hands a replacer a Date already as its string.)
    const values = JSON.stringify(lookup.values.map((value) => (value instanceof Date ? 0 : value)));
    const key = `${address ?? ''}\0${failures.name}\0${requests.name}\0${lookup.shape}\0${values}`;
    return this.batchesOn(db).submit(key, { lookup, failures, address, requests }) as Promise<LookupAnswer<Row>>;
  }

  /** The fused statement's text for `lookup`'s text: built once per shape. */
  private fusedText(lookup: ShapedStatement): string {
    const keyText = shapeText(lookup);
    let text = this.lookups.get(keyText);
    if (text === undefined) {
      // The lookup's own parameters first ($1..$k); the limits' after them, shifted past it.
      const k = lookup.values.length;
      const shifted = admitSql('found', 4).replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + k}`);
      text = `with found as (${keyText}), ${shifted}
  select found.*, (select expire from blocked) as dfs_blocked_until, counted.points as dfs_points, counted.expire as dfs_expire
  from (select 1) as request left join found on true left join counted on true`;
      this.lookups.set(keyText, text);
    }
    return text;
  }

  /** One statement for a batch of alike lookups: run as of its newest member's time (it runs after all arrived). */
  private async lookUpBatch(db: Knex, members: CountedLookup[]): Promise<LookupAnswer<{ id: string }>[]> {
    const { lookup, failures, address, requests } = members[members.length - 1]!;
    const text = this.fusedText(lookup);
    const now = Date.now();
    let joined: Record<string, unknown> | undefined;
    try {
      [joined] = await runText<Record<string, unknown>>(db, text, [
        ...lookup.values,
        ...this.admitValues(failures, address, now),
        `${requests.name}:`,
        ...this.countValues(requests, now, members.length),
      ]);
    } catch (error) {
      // knex names a failed statement by its text: the store's failure (readiness, logs) by the reason alone.
      if (error instanceof Error && error.message.startsWith(`${text} - `))
        error.message = error.message.slice(text.length + 3);
      throw error;
    }
    const { dfs_blocked_until: blocked_until, dfs_points: points, dfs_expire: expire, ...row } = joined!;
    if (row.id === null) return members.map(() => ({ row: undefined, admission: null }));
    return members.map((_, i) => ({
      row: { ...row } as { id: string },
      admission: admissionOf(
        { blocked_until, points, expire } as AdmissionColumns,
        requests,
        now,
        members.length - 1 - i,
      ),
    }));
  }

  /** The address's parameters: its failures' key (none known: a key no row has), the time now, the failures' limit. */
  private admitValues(failures: PostgresLimit, address: string | null, now: number): unknown[] {
    return [address === null ? '' : `${failures.name}:${address}`, now, failures.limit];
  }

  /**
   * Deletes, every five minutes, the rows whose window ended an hour ago (as the library's sweep did),
   * until the function it answers is called.
   */
  startSweeping(): () => void {
    // Unreferenced: it never keeps the process alive; a failed sweep is retried at the next.
    const sweeping = setInterval(() => {
      this.run('dfs_limit_sweep', SWEEP_SQL, [Date.now() - 3_600_000]).catch(() => undefined);
    }, 300_000).unref();
    return () => clearInterval(sweeping);
  }
}
