// Monthly partitions of the ledger (transactions) and the event log (events), by range of
// occurred_at (docs/decisions.md 25). Each table has <table>_yYYYYmMM for one calendar month (UTC)
// and <table>_default for any time no month covers. Making months is idempotent and serialized by a
// transaction-scoped advisory lock, so many instances may do it at once.
import type { Knex } from 'knex';
import type { DbOrTrx } from './knex.js';

const PARTITIONED_TABLES = ['transactions', 'events'] as const;
type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

/** How many months after the current one the service keeps made. */
const MONTHS_AHEAD = 3;

/** The first instant of the month `offset` months after `at`'s month (UTC). */
export function monthStart(at: Date, offset = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
}

function partitionName(table: PartitionedTable, month: Date): string {
  const mm = String(month.getUTCMonth() + 1).padStart(2, '0');
  return `${table}_y${month.getUTCFullYear()}m${mm}`;
}

const NAME = /_y(\d{4})m(\d{2})$/;

/** The month partitions of `table`, oldest first, with the month each covers. */
export async function monthPartitions(db: DbOrTrx, table: PartitionedTable): Promise<{ name: string; month: Date }[]> {
  const { rows } = (await db.raw(
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = ?::regclass`,
    [table],
  )) as { rows: Array<{ name: string }> };
  return rows
    .flatMap(({ name }) => {
      const match = NAME.exec(name);
      return match ? [{ name, month: new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)) }] : [];
    })
    .sort((a, b) => a.month.getTime() - b.month.getTime());
}

const iso = (at: Date) => at.toISOString();

/**
 * Makes the month partition of `month` unless it exists. Rows of that month already in the default
 * partition are moved into a plain table first, which is then attached: Postgres refuses a new
 * partition whose range the default partition holds rows of, and rows inserted into a plain table
 * fire none of the parent's triggers (an event moved is not queued for delivery twice).
 */
async function makeMonth(trx: Knex.Transaction, table: PartitionedTable, month: Date): Promise<boolean> {
  const name = partitionName(table, month);
  const exists = (await trx.raw('select to_regclass(?) as oid', [name])) as { rows: Array<{ oid: unknown }> };
  if (exists.rows[0]?.oid) return false;
  const from = iso(month);
  const to = iso(monthStart(month, 1));
  const stray = (await trx.raw(
    `select 1 from ${table}_default where occurred_at >= ?::timestamptz and occurred_at < ?::timestamptz limit 1`,
    [from, to],
  )) as { rows: unknown[] };
  if (stray.rows.length === 0) {
    await trx.raw(`create table ${name} partition of ${table} for values from ('${from}') to ('${to}')`);
    return true;
  }
  await trx.raw(`create table ${name} (like ${table} including defaults including constraints)`);
  await trx.raw(
    `with moved as (delete from ${table}_default where occurred_at >= ?::timestamptz and occurred_at < ?::timestamptz returning *)
     insert into ${name} select * from moved`,
    [from, to],
  );
  await trx.raw(`alter table ${table} attach partition ${name} for values from ('${from}') to ('${to}')`);
  return true;
}

/** Makes every month partition from `from`'s month to `to`'s month of each table; answers the names made. */
export async function ensureMonths(
  db: DbOrTrx,
  from: Date,
  to: Date,
  tables: readonly PartitionedTable[] = PARTITIONED_TABLES,
): Promise<string[]> {
  const made: string[] = [];
  for (const table of tables) {
    await db.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`partitions:${table}`]);
      for (let month = monthStart(from); month <= to; month = monthStart(month, 1)) {
        if (await makeMonth(trx, table, month)) made.push(partitionName(table, month));
      }
    });
  }
  return made;
}

/** The service's upkeep: the current month and MONTHS_AHEAD more, for both tables. */
export function ensureMonthsAhead(db: DbOrTrx, now: Date): Promise<string[]> {
  return ensureMonths(db, now, monthStart(now, MONTHS_AHEAD));
}
