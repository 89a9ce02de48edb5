import type { DbOrTrx } from '../../db/knex.js';
import { runShaped } from '../../db/prepared.js';
import { recordCustomerPhone } from '../directories.js';
import { whereOrderFilters } from '../financeOrders/queries.js';
import type { ListingWindow, OrderFilters } from '../financeOrders/rows.js';
import { type TenantKey, whereTenantKeys } from '../tenancy.js';
import type { CustomerRow } from './rows.js';

const COLUMNS = ['partner_id', 'id', 'name', 'phone_number', 'email', 'address', 'national_id'] as const;
/** A customer read whole: with when it was registered (a lookup leaves that out). */
const ROW_COLUMNS = [...COLUMNS, 'created_at'] as const;

export function customersByKeys(db: DbOrTrx, keys: readonly TenantKey[]): Promise<CustomerRow[]> {
  return whereTenantKeys(db<CustomerRow>('customers').select(...ROW_COLUMNS), ['partner_id', 'id'], keys);
}

/**
 * The customers a listing holds, as a query (alias c) to select from: registered in the window, and,
 * with order filters, having at least one order (of their own partner) that meets all of them.
 */
function customersListed(db: DbOrTrx, listing: ListingWindow & OrderFilters) {
  const query = db('customers as c');
  if (listing.partnerId !== null) query.where('c.partner_id', listing.partnerId);
  if (listing.createdAfter) query.where('c.created_at', '>=', listing.createdAfter);
  if (listing.createdBefore) query.where('c.created_at', '<', listing.createdBefore);
  if (listing.status || listing.merchantId !== null) {
    const orders = whereOrderFilters(
      db,
      db('finance_orders as o')
        .select(db.raw('true'))
        .where('o.partner_id', db.ref('c.partner_id'))
        .where('o.customer_id', db.ref('c.id')),
      'o',
      listing,
      true,
    );
    // A store's orders have an index ((partner_id, merchant_id, id)): the planner may start from them
    // (EXISTS, a semi-join). A status alone has none: each customer is asked in id order, one index
    // probe of its orders, and the page stops at its end; as a scalar subquery, which Postgres never
    // turns into a join that would first read every order of the partner.
    if (listing.merchantId !== null) query.whereExists(orders);
    else query.whereRaw('coalesce((?), false)', [orders.limit(1)]);
  }
  return query;
}

/**
 * A page of a listing of customers, in id order, after the customer `after`: an id keyset, so the
 * pages of a listing neither skip nor repeat a customer while customers are added.
 */
export function listCustomers(
  db: DbOrTrx,
  listing: ListingWindow & OrderFilters,
  page: { after: string | undefined; limit: number },
): Promise<CustomerRow[]> {
  const query = customersListed(db, listing)
    .select(...ROW_COLUMNS.map((column) => `c.${column}`))
    .orderBy('c.id')
    .limit(page.limit);
  if (page.after !== undefined) query.where('c.id', '>', page.after);
  return query as unknown as Promise<CustomerRow[]>;
}

/** Whether the listing holds the customer `id` or one before it: what precedes a page read after it. */
export async function customersPrecede(
  db: DbOrTrx,
  listing: ListingWindow & OrderFilters,
  id: string,
): Promise<boolean> {
  const query = customersListed(db, listing)
    .select(db.raw('1 as present'))
    .where('c.id', '<=', id)
    .orderBy('c.id', 'desc')
    .limit(1);
  return (await query).length > 0;
}

/**
 * The customers with this phone number in any partner, through the global directory (one index
 * lookup, not every partner's customers): a vendor notification names a customer without its partner.
 * At most two: two already say the number is ambiguous.
 */
export async function findCustomersByPhone(db: DbOrTrx, phone: string): Promise<TenantKey[]> {
  const entries = await db('customer_phone_directory')
    .select('partner_id', 'customer_id')
    .where({ phone_number: phone })
    .orderBy(['partner_id', 'customer_id'])
    .limit(2);
  return entries.map((entry: { partner_id: string; customer_id: string }) => ({
    partnerId: entry.partner_id,
    id: entry.customer_id,
  }));
}

/** A way a customerLocator may name a customer (decisions.md 8). */
export type LocatorRule = 'imei' | 'tag' | 'phone number' | 'id';

/** A customer a locator rule found: `precedence` is the rule's position in the rules asked for. */
interface LocatedCustomerRow extends CustomerRow {
  precedence: number;
  /** The device an IMEI or tag rule went through; null for the phone and id rules. */
  matched_device_id: string | null;
}

/** The customers `locator` names by one rule, within one partner or any when partnerId is null. */
function customersByRule(
  db: DbOrTrx,
  rule: LocatorRule,
  precedence: number,
  locator: string,
  partnerId: string | null,
) {
  const located = [db.raw('?::int4 as precedence', [precedence]), ...COLUMNS.map((column) => `c.${column}`)];
  if (rule === 'imei' || rule === 'tag') {
    // The global directory finds the device whatever its partner (one unique-index lookup); the device names its customer.
    const query = db('device_directory as dd')
      .join('devices as d', (on) => on.on('d.partner_id', 'dd.partner_id').andOn('d.id', 'dd.device_id'))
      .join('customers as c', (on) => on.on('c.partner_id', 'd.partner_id').andOn('c.id', 'd.customer_id'))
      .select(...located, 'dd.device_id as matched_device_id')
      .where(`dd.${rule}`, locator);
    return partnerId === null ? query : query.where('dd.partner_id', partnerId);
  }
  const query = db('customers as c')
    .select(...located, db.raw('null::int8 as matched_device_id'))
    .where(rule === 'id' ? 'c.id' : 'c.phone_number', locator);
  return partnerId === null ? query : query.where('c.partner_id', partnerId);
}

/**
 * The customers `locator` names under `rules`, in one statement (a lookup's cost is its round trips):
 * the rows of the first rule that finds anyone come first, at most two, enough to tell one customer
 * from several under that rule. An IMEI or tag rule finds at most one (the directory is unique); the
 * phone and id rules may find one per partner when partnerId is null. An id rule needs a locator
 * that is a database id.
 */
export function customersByLocator(
  db: DbOrTrx,
  locator: string,
  rules: readonly LocatorRule[],
  partnerId: string | null,
): Promise<LocatedCustomerRow[]> {
  // Run by shape (which rules, one partner or all): each rule binds its precedence, the locator and the partner.
  const values = rules.flatMap((_rule, precedence) =>
    partnerId === null ? [precedence, locator] : [precedence, locator, partnerId],
  );
  values.push(2);
  const shape = `customers by ${rules.join(', ')} in ${partnerId === null ? 'every partner' : 'one partner'}`;
  const build = () => {
    const [first, ...rest] = rules.map((rule, precedence) => customersByRule(db, rule, precedence, locator, partnerId));
    return (rest.length ? first!.unionAll(rest, true) : first!).orderBy(['precedence', 'partner_id', 'id']).limit(2);
  };
  return runShaped<LocatedCustomerRow>(db, { shape, values, build });
}

/** Inserts a customer and its phone number's directory entry (decisions.md 48): call it in a transaction. */
export async function insertCustomer(trx: DbOrTrx, row: Omit<CustomerRow, 'id'>): Promise<CustomerRow> {
  const [inserted] = await trx<CustomerRow>('customers')
    .insert(row)
    .returning([...ROW_COLUMNS]);
  await recordCustomerPhone(trx, inserted as CustomerRow);
  return inserted as CustomerRow;
}
