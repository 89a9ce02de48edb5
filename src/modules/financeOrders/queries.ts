import type { Knex } from 'knex';
import { joinedRow } from '../../db/joinedRows.js';
import type { DbOrTrx } from '../../db/knex.js';
import { prepared, runShaped } from '../../db/prepared.js';
import { joinSql, type SqlFragment, sql, sqlText } from '../../db/sqlFragment.js';
import { deviceSources } from '../devices/queries.js';
import type { DeviceRow } from '../devices/rows.js';
import { recordFinanceOrderOwner } from '../directories.js';
import { PARTNER_SETTINGS_COLUMNS } from '../partners/settings.js';
import { type TenantKey, tenantKeyArrays, whereTenantKeys } from '../tenancy.js';
import { dayRuleColumnsOf, paidThroughSql } from './paidThroughSql.js';
import type {
  FinanceOrderForPayment,
  FinanceOrderRow,
  FinanceOrderStatus,
  ListingWindow,
  OrderFilters,
  StatusMoment,
} from './rows.js';

/** The columns of a FinanceOrderRow (a transaction list selects them through its join too). */
export const COLUMNS = [
  'partner_id',
  'id',
  'customer_id',
  'device_id',
  'merchant_id',
  'clerk_id',
  'cart_id',
  'currency',
  'purchase_minor',
  'down_payment_minor',
  'price_pre_tax_minor',
  'monthly_cost_minor',
  'weekly_cost_minor',
  'months',
  'total_paid_minor',
  'ordered_at',
  'release_at',
  'closed_at',
  'closed_reason',
  'closed_note',
  'cleared_minor',
] as const;

export function financeOrdersByKeys(db: DbOrTrx, keys: readonly TenantKey[]): Promise<FinanceOrderRow[]> {
  return whereTenantKeys(db<FinanceOrderRow>('finance_orders').select(...COLUMNS), ['partner_id', 'id'], keys);
}

/**
 * Whose finance order this id is, through the global directory (one primary-key lookup, whatever the
 * partner): a vendor notification names an order without its partner.
 */
export async function findFinanceOrderOwner(db: DbOrTrx, id: string): Promise<TenantKey | undefined> {
  const entry = await db('finance_order_directory').select('partner_id').where({ id }).first();
  return entry ? { partnerId: entry.partner_id, id } : undefined;
}

/** An order by id: within one partner, or in any partner when partnerId is null (operators). */
export function financeOrderById(
  db: DbOrTrx,
  id: string,
  partnerId: string | null,
): Promise<FinanceOrderRow | undefined> {
  const query = db<FinanceOrderRow>('finance_orders')
    .select(...COLUMNS)
    .where({ id });
  return (partnerId === null ? query : query.where({ partner_id: partnerId })).first();
}

/** The orders of several customers, newest first. */
export function financeOrdersOfCustomers(db: DbOrTrx, customers: readonly TenantKey[]): Promise<FinanceOrderRow[]> {
  return whereTenantKeys(
    db<FinanceOrderRow>('finance_orders').select(...COLUMNS),
    ['partner_id', 'customer_id'],
    customers,
  ).orderBy([
    { column: 'ordered_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ]);
}

/** The orders of several devices, newest first. */
export function financeOrdersOfDevices(db: DbOrTrx, devices: readonly TenantKey[]): Promise<FinanceOrderRow[]> {
  return whereTenantKeys(
    db<FinanceOrderRow>('finance_orders').select(...COLUMNS),
    ['partner_id', 'device_id'],
    devices,
  ).orderBy([
    { column: 'ordered_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ]);
}

/** The orders financed from several carts. */
export function financeOrdersOfCarts(db: DbOrTrx, carts: readonly TenantKey[]): Promise<FinanceOrderRow[]> {
  return whereTenantKeys(db<FinanceOrderRow>('finance_orders').select(...COLUMNS), ['partner_id', 'cart_id'], carts);
}

/** A customer whose current order is wanted (id: the customer's), with the device its lookup went through. */
export interface CustomerOrdersKey extends TenantKey {
  matchedDeviceId: string | null;
}

/** An order read together with its device (and the device's catalogue model and family). */
interface FinanceOrderWithDevice {
  order: FinanceOrderRow;
  device: DeviceRow;
}

/** Each order's device in financeOrdersAroundCustomers. */
const ORDER_DEVICE = joinedRow<DeviceRow>('device', deviceSources({ device: 'd', model: 'm', family: 'f' }));

/**
 * Every order of the devices that these customers' orders finance or their lookups matched, newest
 * first, each with its device: one statement that holds ALL the orders of those customers and ALL
 * the orders of those devices, so a customer's current order, that order's device and the device's
 * standing (its own newest order) need no further query.
 */
export async function financeOrdersAroundCustomers(
  db: DbOrTrx,
  customers: readonly CustomerOrdersKey[],
): Promise<FinanceOrderWithDevice[]> {
  const matched = customers.flatMap((key) =>
    key.matchedDeviceId === null ? [] : [{ partnerId: key.partnerId, id: key.matchedDeviceId }],
  );
  // Run by shape (with or without a matched device): the customers' keys, then the matched devices'.
  const ofCustomers = tenantKeyArrays(customers);
  const ofMatched = matched.length === 0 ? null : tenantKeyArrays(matched);
  const values = [
    ...ofCustomers.bound,
    ...(ofMatched ? ofMatched.both : []),
    ofCustomers.partnerIds,
    ofCustomers.partnerIds,
  ];
  const shape = `orders around customers${ofMatched ? ' and a matched device' : ''}`;
  const build = () => {
    const devicesOfCustomers = whereTenantKeys(
      db('finance_orders').select('partner_id', 'device_id'),
      ['partner_id', 'customer_id'],
      ofCustomers,
    );
    const devices = ofMatched
      ? devicesOfCustomers.union(db.raw('select * from unnest(?::int8[], ?::int8[])', ofMatched.both))
      : devicesOfCustomers;
    return (
      db('finance_orders as o')
        .join('devices as d', (on) => on.on('d.partner_id', 'o.partner_id').andOn('d.id', 'o.device_id'))
        .join('device_models as m', 'm.id', 'd.model_id')
        .join('device_families as f', 'f.id', 'm.family_id')
        .select(...COLUMNS.map((column) => `o.${column}`), ...ORDER_DEVICE.select)
        .whereIn(['o.partner_id', 'o.device_id'], devices)
        // The partners again, on each table: Citus runs the statement on their shards alone (tenancy.ts whereTenantKeys).
        .whereRaw('o.partner_id = any(?::int8[]) and d.partner_id = any(?::int8[])', [
          ofCustomers.partnerIds,
          ofCustomers.partnerIds,
        ])
        .orderBy([
          { column: 'o.ordered_at', order: 'desc' },
          { column: 'o.id', order: 'desc' },
        ])
    );
  };
  const rows = await runShaped<Record<string, unknown>>(db, { shape, values, build });
  return rows.map((row) => ({
    order: Object.fromEntries(COLUMNS.map((column) => [column, row[column]])) as unknown as FinanceOrderRow,
    device: ORDER_DEVICE.take(row)!, // an inner join: every order has its device
  }));
}

/**
 * The order, locked for this transaction (SELECT ... FOR UPDATE OF the order only): concurrent
 * payments on one order take turns, so each sees the balance the previous one left. The partner and
 * the device ride along in the same statement (one round trip); their rows are not locked. So does the
 * device's live credential (its sealed unlock key and counter), for the receipt's unlock code (decisions.md 21).
 */
export function lockFinanceOrder(trx: DbOrTrx, key: TenantKey): Promise<FinanceOrderForPayment | undefined> {
  return prepared(trx<FinanceOrderForPayment>('finance_orders as o'))
    .join('partners as p', 'p.id', 'o.partner_id')
    .join('devices as d', (on) => on.on('d.partner_id', 'o.partner_id').andOn('d.id', 'o.device_id'))
    .leftJoin('device_credentials as dc', (on) =>
      on.on('dc.partner_id', 'd.partner_id').andOn('dc.device_id', 'd.id').andOnNull('dc.ended_at'),
    )
    .select(
      ...COLUMNS.map((column) => `o.${column}`),
      'p.commission_rate_bps',
      ...PARTNER_SETTINGS_COLUMNS.map((column) => `p.${column}`),
      'd.tag as device_tag',
      'd.imei as device_imei',
      'dc.key_hash as credential_key_hash',
      'dc.unlock_key',
      'dc.unlock_key_sealed',
      'dc.unlock_code_counter',
    )
    .where({ 'o.partner_id': key.partnerId, 'o.id': key.id })
    .forUpdate('o')
    .first();
}

export async function insertFinanceOrder(
  trx: DbOrTrx,
  row: Omit<FinanceOrderRow, 'id' | 'total_paid_minor'>,
): Promise<FinanceOrderRow> {
  const [inserted] = await trx<FinanceOrderRow>('finance_orders')
    .insert(row)
    .returning([...COLUMNS]);
  await recordFinanceOrderOwner(trx, inserted as FinanceOrderRow);
  return inserted as FinanceOrderRow;
}

/**
 * An order's status at the listing's moment, as a condition on its row (`alias`): the rules of
 * terms.ts standingOf in SQL. PAID_OFF once the total paid reaches monthly cost × months; before that
 * ACTIVE while lockAt, the paid-through time (paidThroughSql.ts, the one SQL of the day rule) plus
 * the partner's grace in hours, is after the partner's time, LOCKED from then on.
 * test/graph/graph-browse.test.ts holds the two to the same answer at every boundary. For every partner's
 * orders, each order's grace is its partner's row's and its time real time plus its partner's
 * sandbox offset (decisions.md 15).
 */
export function orderStatusSql(alias: string, status: FinanceOrderStatus, moment: StatusMoment): SqlFragment {
  const o = (column: string) => `${alias}.${column}`;
  // Closed orders are neither open nor paid off (decisions.md 44): their own two statuses.
  if (status === 'WRITTEN_OFF' || status === 'RETURNED')
    return sqlText(`${o('closed_reason')} = '${status === 'WRITTEN_OFF' ? 'WRITE_OFF' : 'DEVICE_RETURNED'}'`);
  const open = `${o('closed_at')} is null`;
  const paidOff = sqlText(`${open} and ${o('total_paid_minor')} >= ${o('monthly_cost_minor')} * ${o('months')}`);
  if (status === 'PAID_OFF') return paidOff;
  const paidThrough = paidThroughSql(dayRuleColumnsOf(alias));
  const comparison = sqlText(status === 'ACTIVE' ? '>' : '<=');
  if (moment.partnerId !== null) {
    // Grace 0 (every partner's default) keeps the condition as it always was.
    const lockAt =
      moment.graceHours === 0 ? paidThrough : sql`${paidThrough} + ${moment.graceHours} * interval '1 hour'`;
    return sql`${sqlText(open)} and not (${paidOff}) and ${lockAt} ${comparison} ${moment.now}::timestamptz`;
  }
  const grace = sqlText(`(select g.lock_grace_hours from partners g where g.id = ${o('partner_id')})`);
  const lockAt = sql`${paidThrough} + ${grace} * interval '1 hour'`;
  if (moment.offsets.size === 0)
    return sql`${sqlText(open)} and not (${paidOff}) and ${lockAt} ${comparison} ${moment.realNow}::timestamptz`;
  const offsets = [...moment.offsets].map(([partnerId, ms]) => sql`when ${partnerId} then ${ms}::int8`);
  const offset = sql`case ${sqlText(o('partner_id'))} ${joinSql(offsets, ' ')} else 0 end`;
  return sql`${sqlText(open)} and not (${paidOff}) and ${lockAt} ${comparison} (${moment.realNow}::timestamptz + ${offset} * interval '1 millisecond')`;
}

/**
 * Narrows a query of orders (`alias`) to the filters' status and merchant. `pinned`: the query already
 * names the orders' partner (a merchant id is then compared alone); otherwise the merchant's own
 * partner is named with it, so the (partner_id, merchant_id, id) index serves an operator's listing too.
 */
export function whereOrderFilters<Q extends Knex.QueryBuilder>(
  db: DbOrTrx,
  query: Q,
  alias: string,
  filters: OrderFilters,
  pinned: boolean,
): Q {
  if (filters.status) {
    const { sql, bindings } = orderStatusSql(alias, filters.status, filters.moment);
    query.whereRaw(`(${sql})`, bindings);
  }
  if (filters.merchantId !== null) {
    if (pinned) query.where(`${alias}.merchant_id`, filters.merchantId);
    else
      query.whereIn(
        [`${alias}.partner_id`, `${alias}.merchant_id`],
        db('merchants').select('partner_id', 'id').where('id', filters.merchantId),
      );
  }
  return query;
}

/** The orders a listing holds, as a query (alias o) to select from. */
function financeOrdersListed(db: DbOrTrx, listing: ListingWindow & OrderFilters) {
  const query = db('finance_orders as o');
  if (listing.partnerId !== null) query.where('o.partner_id', listing.partnerId);
  whereOrderFilters(db, query, 'o', listing, listing.partnerId !== null);
  if (listing.createdAfter) query.where('o.ordered_at', '>=', listing.createdAfter);
  if (listing.createdBefore) query.where('o.ordered_at', '<', listing.createdBefore);
  return query;
}

/**
 * A page of a listing of orders, in id order, after the order `after`: an id keyset, so the pages of
 * a listing neither skip nor repeat an order while orders are added (each gets a higher id).
 */
export function listFinanceOrders(
  db: DbOrTrx,
  listing: ListingWindow & OrderFilters,
  page: { after: string | undefined; limit: number },
): Promise<FinanceOrderRow[]> {
  const query = financeOrdersListed(db, listing)
    .select(...COLUMNS.map((column) => `o.${column}`))
    .orderBy('o.id')
    .limit(page.limit);
  if (page.after !== undefined) query.where('o.id', '>', page.after);
  return query as unknown as Promise<FinanceOrderRow[]>;
}

/** Whether the listing holds the order `id` or one before it: what precedes a page read after it. */
export async function financeOrdersPrecede(
  db: DbOrTrx,
  listing: ListingWindow & OrderFilters,
  id: string,
): Promise<boolean> {
  const query = financeOrdersListed(db, listing)
    .select(db.raw('1 as present'))
    .where('o.id', '<=', id)
    .orderBy('o.id', 'desc')
    .limit(1);
  return (await query).length > 0;
}
