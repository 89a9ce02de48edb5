// Twins of demo order 4000004 for the timeline's tests: orders of Demo Retail sold at one chosen
// instant, each with its customer and device (tag `TWIN<id>`, IMEI 400000000000000 + id, in the device
// directory, so a vendor's notification and a lookup find them). No instants: a payment makes them, or
// timeline/schedule.ts scheduleLoadedOrders.
import type { Db } from '../../src/db/knex.js';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID } from '../../src/fixtures/demoIds.js';

/** A twin's device tag and IMEI. */
export const twinDevice = (id: string) => ({ tag: `TWIN${id}`, imei: String(400000000000000 + Number(id)) });

/**
 * `count` orders from id `first` (18.00 a month for 12 months, 18.00 paid, as demo order 4000004),
 * sold at `soldAt` (to the millisecond); answers their ids.
 */
export async function addTwinOrders(db: Db, first: number, count: number, soldAt: Date): Promise<string[]> {
  const series = `generate_series(${first}, ${first + count - 1}) as g`;
  await db.raw(
    `insert into customers (partner_id, id, name, phone_number) select 1, g, 'Twin ' || g, '666' || g from ${series}`,
  );
  await db.raw(`insert into devices (partner_id, id, customer_id, model_id, tag, imei)
    select 1, g, g, 3, 'TWIN' || g, (400000000000000 + g)::text from ${series}`);
  await db.raw(`insert into device_directory (imei, tag, partner_id, device_id)
    select (400000000000000 + g)::text, 'TWIN' || g, 1, g from ${series}`);
  await db.raw(
    `insert into finance_orders (partner_id, id, customer_id, device_id, merchant_id, clerk_id, currency, purchase_minor,
       down_payment_minor, price_pre_tax_minor, monthly_cost_minor, weekly_cost_minor, months, total_paid_minor, ordered_at)
     select 1, g, g, g, ${DEMO_MERCHANT_ID}, ${DEMO_CLERK_ID}, 'USD', 30000, 10000, 30000, 1800, 400, 12, 1800,
       ?::timestamptz from ${series}`,
    [soldAt.toISOString()],
  );
  return Array.from({ length: count }, (_, index) => String(first + index));
}
