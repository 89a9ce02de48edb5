// The bench's baseline: the floor of this stack for lookup-customer. A minimal Express handler with
// `pg` (no GraphQL, no knex, no middleware) running the same SQL statements, in the same order, as
// the service issues for GET /v1/lookup-customer.php (captured with DEBUG=knex:query): the key by
// its hash, the device directory (IMEI, then tag), the device, the customer, the order, its
// payments and its device; or the customer by phone, then by id. It answers the same top-level
// shape; it does not check key kinds, rate limits, or write request logs.
// Run by scripts/bench.ts as its own process: DATABASE_URL, PORT, DATABASE_POOL_MAX.
import express from 'express';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_MAX ?? 10) });
const IMEI = /^[0-9]{15,16}$/;

const KEY_SQL = `select "id", "key_hash", "display_prefix", "kind", "partner_id", "vendor_id", "operator_id", "label", "created_at", "expires_at", "revoked_at" from "api_keys" where "key_hash" = $1 and "revoked_at" is null and ("expires_at" is null or "expires_at" > $2) limit $3`;
const DIRECTORY_SQL = {
  imei: `select "partner_id", "device_id" from "device_directory" where "imei" = $1 limit $2`,
  tag: `select "partner_id", "device_id" from "device_directory" where "tag" = $1 limit $2`,
};
const DEVICE_COLUMNS = `"d"."partner_id", "d"."id", "d"."customer_id", "d"."model_id", "d"."tag", "d"."imei", "d"."sim_number", "d"."phone_number", "d"."description", "d"."last_seen_at", "m"."make_model" as "model_make_model", "m"."name" as "model_name", "f"."id" as "family_id", "f"."name" as "family_name" from "devices" as "d" inner join "device_models" as "m" on "m"."id" = "d"."model_id" inner join "device_families" as "f" on "f"."id" = "m"."family_id"`;
const DEVICE_SQL = `select ${DEVICE_COLUMNS} where "d"."partner_id" = $1 and "d"."id" = $2 limit $3`;
const DEVICE_BY_KEYS_SQL = `select ${DEVICE_COLUMNS} where ("d"."partner_id", "d"."id") in (($1, $2))`;
const CUSTOMER_COLUMNS = `"partner_id", "id", "name", "phone_number", "email", "address", "national_id"`;
const CUSTOMER_BY_KEYS_SQL = `select ${CUSTOMER_COLUMNS} from "customers" where ("partner_id", "id") in (($1, $2))`;
const CUSTOMER_BY_PHONE_SQL = `select ${CUSTOMER_COLUMNS} from "customers" where "phone_number" = $1 and "partner_id" = $2 order by "partner_id" asc, "id" asc`;
const CUSTOMER_BY_ID_SQL = `select ${CUSTOMER_COLUMNS} from "customers" where "id" = $1 and "partner_id" = $2`;
const ORDER_COLUMNS = `"partner_id", "id", "customer_id", "device_id", "merchant_id", "clerk_id", "cart_id", "currency", "purchase_minor", "down_payment_minor", "price_pre_tax_minor", "monthly_cost_minor", "weekly_cost_minor", "months", "total_paid_minor", "ordered_at"`;
const ORDERS_BY_DEVICE_SQL = `select ${ORDER_COLUMNS} from "finance_orders" where ("partner_id", "device_id") in (($1, $2)) order by "ordered_at" desc, "id" desc`;
const ORDERS_BY_CUSTOMER_SQL = `select ${ORDER_COLUMNS} from "finance_orders" where ("partner_id", "customer_id") in (($1, $2)) order by "ordered_at" desc, "id" desc`;
const PAYMENTS_SQL = `select "partner_id", "id", "finance_order_id", "channel", "amount_minor", "currency", "merchant_id", "clerk_id", "vendor_id", "vendor_reference", "received_at" from "payments" where ("partner_id", "finance_order_id") in (($1, $2)) order by "received_at" asc, "id" asc`;

type Row = Record<string, any>;
const one = async (sql: string, values: unknown[]): Promise<Row | undefined> => (await pool.query(sql, values)).rows[0];
const all = async (sql: string, values: unknown[]): Promise<Row[]> => (await pool.query(sql, values)).rows;
const money = (minor: unknown) => Number(minor) / 100;
const seconds = (at: unknown) => (at ? Math.floor(new Date(at as string).getTime() / 1000) : null);

const app = express();
app.get('/v1/lookup-customer.php', async (req, res) => {
  try {
    const key = typeof req.query.key === 'string' ? req.query.key : '';
    const locator = typeof req.query.customerLocator === 'string' ? req.query.customerLocator.trim() : '';
    const principal = await one(KEY_SQL, [createHash('sha256').update(key, 'utf8').digest('hex'), new Date(), 1]);
    if (!principal?.partner_id) return void res.status(401).json({ valid: false, message: 'unknown key' });
    const partnerId = String(principal.partner_id);

    let customer: Row | undefined;
    let matchedDevice: Row | undefined;
    for (const by of IMEI.test(locator) ? (['imei', 'tag'] as const) : (['tag'] as const)) {
      const entry = await one(DIRECTORY_SQL[by], [locator, 1]);
      if (!entry || String(entry.partner_id) !== partnerId) continue;
      const device = await one(DEVICE_SQL, [entry.partner_id, entry.device_id, 1]);
      if (device?.customer_id) {
        customer = await one(CUSTOMER_BY_KEYS_SQL, [device.partner_id, device.customer_id]);
        if (customer) {
          matchedDevice = device;
          break;
        }
      }
    }
    if (!customer) customer = (await all(CUSTOMER_BY_PHONE_SQL, [locator, partnerId]))[0];
    if (!customer && /^[1-9][0-9]{0,17}$/.test(locator)) customer = (await all(CUSTOMER_BY_ID_SQL, [locator, partnerId]))[0];
    if (!customer) return void res.status(404).json({ valid: false, message: 'no customer matches the locator' });

    const orders = matchedDevice
      ? await all(ORDERS_BY_DEVICE_SQL, [partnerId, matchedDevice.id])
      : await all(ORDERS_BY_CUSTOMER_SQL, [partnerId, customer.id]);
    const order = orders[0];
    if (!order) return void res.json({ valid: true, customer: { id: Number(customer.id) } });
    const payments = await all(PAYMENTS_SQL, [partnerId, order.id]);
    const device = await one(DEVICE_BY_KEYS_SQL, [partnerId, order.device_id]);
    // The service also reads the device's orders when the customer was not found through it.
    if (!matchedDevice) await all(ORDERS_BY_DEVICE_SQL, [partnerId, order.device_id]);
    const remaining = Number(order.monthly_cost_minor) * Number(order.months) - Number(order.total_paid_minor);
    res.json({
      valid: true,
      customer: { id: Number(customer.id) },
      device: device && {
        family: { id: Number(device.family_id), name: device.family_name },
        imei: device.imei,
        model: { id: Number(device.model_id), makeModel: device.model_make_model, name: device.model_name },
        simNumber: device.sim_number,
        lastSeen: seconds(device.last_seen_at),
      },
      financeOrder: {
        currency: order.currency,
        downPayment: money(order.down_payment_minor),
        financeAmount: money(Number(order.purchase_minor) - Number(order.down_payment_minor)),
        id: Number(order.id),
        monthlyCost: money(order.monthly_cost_minor),
        months: order.months,
        pricePreTax: money(order.price_pre_tax_minor),
        purchaseAmount: money(order.purchase_minor),
        remainingBalance: money(remaining),
        time: seconds(order.ordered_at),
        weeklyCost: money(order.weekly_cost_minor),
      },
      paymentHistory: payments.map((p) => `${seconds(p.received_at)} ${money(p.amount_minor).toFixed(2)} ${p.currency}`),
      paymentOptions: [
        { amount: money(remaining), currency: order.currency, type: 'full' },
        { amount: money(order.monthly_cost_minor), currency: order.currency, type: 'month' },
        { amount: money(order.weekly_cost_minor), currency: order.currency, type: 'week' },
      ],
    });
  } catch (error) {
    res.status(500).json({ valid: false, message: String(error) });
  }
});
app.get('/healthz', (_req, res) => void res.json({ ok: true }));

const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`baseline listening on 127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
const shutdown = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
