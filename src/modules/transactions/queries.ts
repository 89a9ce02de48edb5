import type { Knex } from 'knex';
import type { DbOrTrx } from '../../db/knex.js';
import { whereTenantKeys, type TenantKey } from '../tenancy.js';
import { decimalSql, type FilterTerm } from './filters.js';
import type { AdjustmentRow, ListedTransactionRow, TransactionRow } from './rows.js';

const COLUMNS = [
  'partner_id', 'id', 'type', 'amount_minor', 'currency', 'occurred_at', 'merchant_id', 'finance_order_id', 'payment_id', 'clerk_id', 'adjustment_id',
] as const;

export interface TransactionWindow {
  partnerId: string;
  start: Date;
  end: Date;
  filters: readonly FilterTerm[];
  /** Exclusive keyset position: (time in microseconds since the epoch, id). */
  after?: { timeUs: string; id: string };
  /** At most this many rows; all of the window when absent. */
  limit?: number;
}

function joinFor(query: Knex.QueryBuilder, join: string): void {
  switch (join) {
    case 'merchant':
      query.leftJoin('merchants as m', function () {
        this.on('m.partner_id', 't.partner_id').andOn('m.id', 't.merchant_id');
      });
      break;
    case 'clerk':
      query.leftJoin('clerks as c', function () {
        this.on('c.partner_id', 't.partner_id').andOn('c.id', 't.clerk_id');
      });
      break;
    case 'order':
      query.leftJoin('finance_orders as o', function () {
        this.on('o.partner_id', 't.partner_id').andOn('o.id', 't.finance_order_id');
      });
      break;
    case 'device':
      query
        .leftJoin('devices as d', function () {
          this.on('d.partner_id', 'o.partner_id').andOn('d.id', 'o.device_id');
        })
        .leftJoin('device_models as dm', 'dm.id', 'd.model_id')
        .leftJoin('device_families as df', 'df.id', 'dm.family_id');
      break;
    case 'payment':
      query.leftJoin('payments as p', function () {
        this.on('p.partner_id', 't.partner_id').andOn('p.id', 't.payment_id');
      });
      break;
    case 'adjustment':
      query.leftJoin('adjustments as a', function () {
        this.on('a.partner_id', 't.partner_id').andOn('a.id', 't.adjustment_id');
      });
      break;
  }
}

/**
 * One partner's transactions with start <= time < end, in (time, id) order, one statement. Uses
 * the (partner_id, occurred_at, id) index; joins only what the filters need.
 */
export function transactionsInWindow(db: DbOrTrx, window: TransactionWindow): Promise<ListedTransactionRow[]> {
  const query = db('transactions as t')
    .select(...COLUMNS.map((column) => `t.${column}`), db.raw('(extract(epoch from t.occurred_at) * 1000000)::int8 as occurred_at_us'))
    .where('t.partner_id', window.partnerId)
    .where('t.occurred_at', '>=', window.start)
    .where('t.occurred_at', '<', window.end)
    .orderBy(['t.occurred_at', 't.id']);
  const joins = new Set<string>(window.filters.flatMap((term) => term.field.joins));
  for (const join of ['merchant', 'clerk', 'order', 'device', 'payment', 'adjustment']) if (joins.has(join)) joinFor(query, join);
  for (const term of window.filters) {
    if (term.field.currencySql) {
      // An amount compares as a number ("-18" matches -18.00); text that is no number matches nothing.
      if (!/^-?\d{1,20}(\.\d{1,20})?$/.test(term.value)) query.whereRaw('false');
      else query.whereRaw(`${decimalSql(term.field.sql, term.field.currencySql)} = ?::numeric`, [term.value]);
    } else {
      query.whereRaw(`${term.field.sql} = ?`, [term.value]);
    }
    if (term.field.types) query.whereIn('t.type', term.field.types);
  }
  if (window.after) {
    query.whereRaw(`(t.occurred_at, t.id) > (timestamptz 'epoch' + ?::int8 * interval '1 microsecond', ?::int8)`, [window.after.timeUs, window.after.id]);
  }
  if (window.limit !== undefined) query.limit(window.limit);
  return query as unknown as Promise<ListedTransactionRow[]>;
}

export async function insertTransactions(trx: DbOrTrx, rows: Array<Omit<TransactionRow, 'id'>>): Promise<TransactionRow[]> {
  if (rows.length === 0) return [];
  return (await trx('transactions').insert(rows).returning([...COLUMNS])) as TransactionRow[];
}

const ADJUSTMENT_COLUMNS = ['partner_id', 'id', 'kind', 'amount_minor', 'currency', 'notes', 'merchant_id', 'finance_order_id', 'operator_id', 'created_at'] as const;

export function adjustmentsByKeys(db: DbOrTrx, keys: readonly TenantKey[]): Promise<AdjustmentRow[]> {
  return whereTenantKeys(db<AdjustmentRow>('adjustments').select(...ADJUSTMENT_COLUMNS), ['partner_id', 'id'], keys);
}

export async function insertAdjustment(trx: DbOrTrx, row: Omit<AdjustmentRow, 'id'>): Promise<AdjustmentRow> {
  const [inserted] = await trx<AdjustmentRow>('adjustments').insert(row).returning([...ADJUSTMENT_COLUMNS]);
  return inserted as AdjustmentRow;
}
