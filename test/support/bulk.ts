// Bulk demo-shaped data for load-shaped tests: `orders` more finance orders for Demo Retail, each
// with its device, one in-store payment of 18.00, and its finance, cash and 5% commission
// transactions (3 per order), and the events the service writes with them: a ledger the checker finds
// consistent.
import type { Db } from '../../src/db/knex.js';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID } from '../../src/fixtures/demoIds.js';
import { writeEventsOfRows } from '../../src/fixtures/eventRows.js';

/** Times run back from `before`, two hours apart per order. */
export async function addBulkOrders(db: Db, orders: number, before: Date): Promise<void> {
  const partner = (await db('partners').where({ name: 'Demo Retail' }).first()).id;
  const series = `generate_series(1, ${Number(orders)}) as g`;
  const merchant = `case g % 3 when 0 then ${DEMO_MERCHANT_ID} when 1 then 999888 else 1000201 end`;
  const clerk = `case g % 3 when 0 then ${DEMO_CLERK_ID} when 1 then 5334 else 5320 end`;
  const at = (hoursBack: string) =>
    db.raw(`?::timestamptz - (${hoursBack}) * interval '1 hour'`, [before.toISOString()]).toQuery();
  await db.raw(
    `insert into customers (partner_id, id, name, phone_number) select ${partner}, 7000000 + g, 'Bulk ' || g, '777' || g from ${series}`,
  );
  await db.raw(`insert into devices (partner_id, id, customer_id, model_id, tag, imei)
    select ${partner}, 7100000 + g, 7000000 + g, case when g % 2 = 0 then 3 else 12 end, 'BULK' || g, (100000000000000 + g)::text from ${series}`);
  await db.raw(`insert into finance_orders (partner_id, id, customer_id, device_id, merchant_id, clerk_id, currency, purchase_minor, down_payment_minor,
      price_pre_tax_minor, monthly_cost_minor, weekly_cost_minor, months, total_paid_minor, ordered_at)
    select ${partner}, 7200000 + g, 7000000 + g, 7100000 + g, ${merchant}, ${clerk}, 'USD', 30000, 10000, 30000, 1800, 400, 12, 1800, ${at('2 * g + 1')} from ${series}`);
  await db.raw(`insert into payments (partner_id, id, finance_order_id, channel, amount_minor, currency, merchant_id, clerk_id, received_at, reversible_until)
    select ${partner}, 7300000 + g, 7200000 + g, 'in_store', 1800, 'USD', ${merchant}, ${clerk}, ${at('2 * g')}, ${at('2 * g')} + interval '72 hours' from ${series}`);
  await db.raw(`insert into transactions (partner_id, type, amount_minor, currency, occurred_at, merchant_id, clerk_id, finance_order_id)
    select ${partner}, 'finance', 20000, 'USD', ${at('2 * g + 1')}, ${merchant}, ${clerk}, 7200000 + g from ${series}`);
  await db.raw(`insert into transactions (partner_id, type, amount_minor, currency, occurred_at, merchant_id, clerk_id, finance_order_id, payment_id)
    select ${partner}, 'cash', -1800, 'USD', ${at('2 * g')}, ${merchant}, ${clerk}, 7200000 + g, 7300000 + g from ${series}`);
  await db.raw(`insert into transactions (partner_id, type, amount_minor, currency, occurred_at, merchant_id, finance_order_id, payment_id)
    select ${partner}, 'commission', 90, 'USD', ${at('2 * g')}, ${merchant}, 7200000 + g, 7300000 + g from ${series}`);
  await writeEventsOfRows(db, { since: new Date(0), financeOrderIds: [7200001, 7200000 + Number(orders)] });
}
