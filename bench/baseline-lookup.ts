// The bench's baseline for lookup-customer: the floor of this stack for that door. The simplest fast
// handler on `pg` (no GraphQL, no knex) running the statements the service sends for GET
// /v1/lookup-customer.php, in the same order and text (test/rest/statements-lookup.test.ts pins that they
// stay equal), each a named prepared statement: the key by its hash; the customer by every locator
// rule in one statement (IMEI, tag, phone number, id; the first rule that finds one wins); the orders
// of the customer's devices (and of the device the locator matched), each with its device; the
// chosen order's payments. It answers the same top-level shape; it does not check key kinds, rate
// limits, or write request logs. bench/baseline-server.ts serves it.
import { createHash } from 'node:crypto';
import { formatAmount } from '../src/kernel/money.js';
import { COLUMNS as DEVICE_COLUMN_NAMES } from '../src/modules/devices/queries.js';
import { COLUMNS as ORDER_COLUMN_NAMES } from '../src/modules/financeOrders/queries.js';
import { COLUMNS as PAYMENT_COLUMNS } from '../src/modules/payments/queries.js';
import { amountNumber, KEY_SQL, named, qualified, type Row } from './baselineSql.js';

/** What of pg.Pool this needs. */
export interface Queryable {
  query(statement: { name: string; text: string; values: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface Answer {
  status: number;
  body: unknown;
}

const answer = (status: number, body: unknown): Answer => ({ status, body });

const IMEI = /^[0-9]{15,16}$/;
const DATABASE_ID = /^[1-9][0-9]{0,17}$/;

// The customer: one parenthesised branch per locator rule (the IMEI rule only for 15 or 16 digits, the
// id rule only for a database id), three parameters each (precedence, locator, partner), then the limit.
type LocatorRule = 'imei' | 'tag' | 'phone_number' | 'id';
const LOCATED_COLUMNS = (n: number) =>
  `$${n}::int4 as precedence, "c"."partner_id", "c"."id", "c"."name", "c"."phone_number", "c"."email", "c"."address", "c"."national_id"`;
const RULE_SQL = (rule: LocatorRule, n: number) =>
  rule === 'imei' || rule === 'tag'
    ? `(select ${LOCATED_COLUMNS(n)}, "dd"."device_id" as "matched_device_id" from "device_directory" as "dd" inner join "devices" as "d" on "d"."partner_id" = "dd"."partner_id" and "d"."id" = "dd"."device_id" inner join "customers" as "c" on "c"."partner_id" = "d"."partner_id" and "c"."id" = "d"."customer_id" where "dd"."${rule}" = $${n + 1} and "dd"."partner_id" = $${n + 2})`
    : `(select ${LOCATED_COLUMNS(n)}, null::int8 as matched_device_id from "customers" as "c" where "c"."${rule}" = $${n + 1} and "c"."partner_id" = $${n + 2})`;
const LOCATE_SQL = (rules: readonly LocatorRule[]) =>
  `${rules.map((rule, i) => RULE_SQL(rule, 3 * i + 1)).join(' union all ')} order by "precedence" asc, "partner_id" asc, "id" asc limit $${3 * rules.length + 1}`;

const ORDER_COLUMNS = qualified('o', ORDER_COLUMN_NAMES);
const DEVICE_COLUMNS = [
  ...DEVICE_COLUMN_NAMES.map((column) => `"d"."${column}" as "device__${column}"`),
  '"m"."make_model" as "device__model_make_model"',
  '"m"."name" as "device__model_name"',
  '"f"."id" as "device__family_id"',
  '"f"."name" as "device__family_name"',
].join(', ');
// The orders of every device the customer's orders finance (and of the matched device), with their devices.
const ORDERS_WITH_DEVICES_SQL = (matched: boolean) =>
  `select ${ORDER_COLUMNS}, ${DEVICE_COLUMNS} from "finance_orders" as "o" inner join "devices" as "d" on "d"."partner_id" = "o"."partner_id" and "d"."id" = "o"."device_id" inner join "device_models" as "m" on "m"."id" = "d"."model_id" inner join "device_families" as "f" on "f"."id" = "m"."family_id" where ("o"."partner_id", "o"."device_id") in (select "partner_id", "device_id" from "finance_orders" where ("partner_id", "customer_id") in (select * from unnest($1::int8[], $2::int8[])) and "partner_id" = any($3::int8[])${matched ? ' union select * from unnest($4::int8[], $5::int8[])' : ''}) and o.partner_id = any($${matched ? 6 : 4}::int8[]) and d.partner_id = any($${matched ? 7 : 5}::int8[]) order by "o"."ordered_at" desc, "o"."id" desc`;
const PAYMENTS_SQL = `select ${PAYMENT_COLUMNS.map((column) => `"${column}"`).join(', ')} from "payments" where ("partner_id", "finance_order_id") in (select * from unnest($1::int8[], $2::int8[])) and "partner_id" = any($3::int8[]) order by "received_at" asc, "id" asc`;

const seconds = (at: unknown) => (at ? Math.floor(new Date(at as string).getTime() / 1000) : null);

/** GET /v1/lookup-customer.php?key=&customerLocator= as the baseline answers it. */
export async function lookupCustomer(pool: Queryable, query: Record<string, unknown>): Promise<Answer> {
  const one = async (sql: string, values: unknown[]): Promise<Row | undefined> =>
    (await pool.query(named(sql, values))).rows[0];
  const all = async (sql: string, values: unknown[]): Promise<Row[]> => (await pool.query(named(sql, values))).rows;

  const key = typeof query.key === 'string' ? query.key : '';
  const locator = typeof query.customerLocator === 'string' ? query.customerLocator.trim() : '';
  const principal = await one(KEY_SQL, [createHash('sha256').update(key, 'utf8').digest('hex'), new Date(), 1]);
  if (!principal?.partner_id) return answer(401, { valid: false, message: 'unknown key' });
  const partnerId = String(principal.partner_id);

  if (locator === '' || locator.length > 64)
    return answer(404, { valid: false, message: 'no customer matches the locator' });
  const rules: LocatorRule[] = [
    ...(IMEI.test(locator) ? (['imei'] as const) : []),
    'tag',
    'phone_number',
    ...(DATABASE_ID.test(locator) ? (['id'] as const) : []),
  ];
  const [customer, next] = await all(LOCATE_SQL(rules), [
    ...rules.flatMap((_, precedence) => [precedence, locator, partnerId]),
    2,
  ]);
  if (!customer) return answer(404, { valid: false, message: 'no customer matches the locator' });
  if (next && next.precedence === customer.precedence)
    return answer(400, { valid: false, message: 'matches several customers' });

  const matchedDeviceId = customer.matched_device_id as string | null;
  const orders = await all(ORDERS_WITH_DEVICES_SQL(matchedDeviceId !== null), [
    [partnerId],
    [customer.id],
    [partnerId],
    ...(matchedDeviceId !== null ? [[partnerId], [matchedDeviceId]] : []),
    [partnerId],
    [partnerId],
  ]);
  // The matched device's newest order; else the customer's newest open order, else its newest.
  const own = orders.filter((row) => String(row.customer_id) === String(customer.id));
  const order =
    orders.find((row) => matchedDeviceId !== null && String(row.device_id) === String(matchedDeviceId)) ??
    own.find((row) => Number(row.monthly_cost_minor) * Number(row.months) > Number(row.total_paid_minor)) ??
    own[0];
  if (!order) return answer(200, { valid: true, customer: { id: Number(customer.id) } });
  const payments = await all(PAYMENTS_SQL, [[partnerId], [order.id], [partnerId]]);
  const remaining = Number(order.monthly_cost_minor) * Number(order.months) - Number(order.total_paid_minor);
  return answer(200, {
    valid: true,
    customer: { id: Number(customer.id) },
    device: {
      family: { id: Number(order.device__family_id), name: order.device__family_name },
      imei: order.device__imei,
      model: {
        id: Number(order.device__model_id),
        makeModel: order.device__model_make_model,
        name: order.device__model_name,
      },
      simNumber: order.device__sim_number,
      lastSeen: seconds(order.device__last_seen_at),
    },
    financeOrder: {
      currency: order.currency,
      downPayment: amountNumber(order.down_payment_minor, order.currency),
      financeAmount: amountNumber(
        BigInt(String(order.purchase_minor)) - BigInt(String(order.down_payment_minor)),
        order.currency,
      ),
      id: Number(order.id),
      monthlyCost: amountNumber(order.monthly_cost_minor, order.currency),
      months: order.months,
      pricePreTax: amountNumber(order.price_pre_tax_minor, order.currency),
      purchaseAmount: amountNumber(order.purchase_minor, order.currency),
      remainingBalance: amountNumber(remaining, order.currency),
      time: seconds(order.ordered_at),
      weeklyCost: amountNumber(order.weekly_cost_minor, order.currency),
    },
    paymentHistory: payments.map(
      (p) => `${seconds(p.received_at)} ${formatAmount(String(p.amount_minor), String(p.currency))} ${p.currency}`,
    ),
    paymentOptions: [
      { amount: amountNumber(remaining, order.currency), currency: order.currency, type: 'full' },
      { amount: amountNumber(order.monthly_cost_minor, order.currency), currency: order.currency, type: 'month' },
      { amount: amountNumber(order.weekly_cost_minor, order.currency), currency: order.currency, type: 'week' },
    ],
  });
}
