// The bench's data: the large data-set generator (`npm run bench:data -- --customers N`) when the
// project has it, otherwise a documented fallback: the demo seed plus N bulk customers of Demo
// Retail, each with a device (in the device directory), a finance order, one in-store payment of
// 18.00 and its finance, cash and commission transactions, spread evenly over the year before now.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { Db } from '../../src/db/knex.js';
import { seedDemoData } from '../../src/db/seed.js';

export type FillSource = 'generator' | 'fallback';

/** Whether package.json declares the generator's script (`bench:data`). */
export function generatorAvailable(root: string): boolean {
  const manifest = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { scripts?: Record<string, string> };
  return Boolean(manifest.scripts?.['bench:data']) && existsSync(`${root}/src/cli/bench-data.ts`);
}

/** Runs `npm run bench:data -- --customers N` against the given database; rejects on a non-zero exit. */
export function runGenerator(root: string, databaseUrl: string, customers: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'bench:data', '--', '--customers', String(customers)], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: 'development', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`npm run bench:data exited with ${signal ?? code}`)),
    );
  });
}

const BULK_BASE = { customer: 7_000_000, device: 7_100_000, order: 7_200_000, payment: 7_300_000 };

/** The fallback: demo seed, then `customers` bulk orders over the year before `now` (set-based SQL). */
export async function fallbackFill(db: Db, customers: number, now: Date): Promise<void> {
  await seedDemoData(db, { production: false, now });
  const partner = (await db('partners').where({ name: 'Demo Retail' }).first()).id as string;
  const n = Math.max(1, Math.floor(customers));
  if (n > 999_999) throw new Error('the fallback fill holds at most 999,999 customers');
  const series = `generate_series(1, ${n}) as g`;
  // Merchant and clerk pairs of the demo data, as test/support/bulk.ts uses them.
  const merchant = 'case g % 3 when 0 then 851005 when 1 then 999888 else 1000201 end';
  const clerk = 'case g % 3 when 0 then 5335 when 1 then 5334 else 5320 end';
  // Order g at now - g * (365 days / n) - 1 hour; its payment an hour later.
  const step = (365 * 24 * 3600) / n;
  const at = (extraSeconds: number) =>
    db.raw(`?::timestamptz - (g * ${step} + ${extraSeconds}) * interval '1 second'`, [now.toISOString()]).toQuery();
  const c = BULK_BASE;
  await db.transaction(async (trx) => {
    await trx.raw(`insert into customers (partner_id, id, name, phone_number) select ${partner}, ${c.customer} + g, 'Bulk customer ' || g, '+1555' || lpad(g::text, 7, '0') from ${series}`);
    await trx.raw(`insert into devices (partner_id, id, customer_id, model_id, tag, imei, sim_number, phone_number)
      select ${partner}, ${c.device} + g, ${c.customer} + g, case when g % 2 = 0 then 3 else 12 end, 'BULK' || g, (350000000000000 + g)::text,
        (89000000000000000000 + g)::text, '+1555' || lpad(g::text, 7, '0') from ${series}`);
    await trx.raw(`insert into device_directory (imei, tag, partner_id, device_id)
      select (350000000000000 + g)::text, 'BULK' || g, ${partner}, ${c.device} + g from ${series}`);
    await trx.raw(`insert into finance_orders (partner_id, id, customer_id, device_id, merchant_id, clerk_id, currency, purchase_minor, down_payment_minor,
        price_pre_tax_minor, monthly_cost_minor, weekly_cost_minor, months, total_paid_minor, ordered_at)
      select ${partner}, ${c.order} + g, ${c.customer} + g, ${c.device} + g, ${merchant}, ${clerk}, 'USD', 30000, 10000, 30000, 1800, 400, 12, 1800, ${at(3600)} from ${series}`);
    await trx.raw(`insert into payments (partner_id, id, finance_order_id, channel, amount_minor, currency, merchant_id, clerk_id, received_at)
      select ${partner}, ${c.payment} + g, ${c.order} + g, 'in_store', 1800, 'USD', ${merchant}, ${clerk}, ${at(0)} from ${series}`);
    await trx.raw(`insert into transactions (partner_id, type, amount_minor, currency, occurred_at, merchant_id, clerk_id, finance_order_id)
      select ${partner}, 'finance', 20000, 'USD', ${at(3600)}, ${merchant}, ${clerk}, ${c.order} + g from ${series}`);
    await trx.raw(`insert into transactions (partner_id, type, amount_minor, currency, occurred_at, merchant_id, clerk_id, finance_order_id, payment_id)
      select ${partner}, 'cash', -1800, 'USD', ${at(0)}, ${merchant}, ${clerk}, ${c.order} + g, ${c.payment} + g from ${series}`);
    await trx.raw(`insert into transactions (partner_id, type, amount_minor, currency, occurred_at, merchant_id, finance_order_id, payment_id)
      select ${partner}, 'commission', 90, 'USD', ${at(0)}, ${merchant}, ${c.order} + g, ${c.payment} + g from ${series}`);
    // Fixed ids above do not move the sequences: move them past the highest id.
    for (const table of ['customers', 'devices', 'finance_orders', 'payments', 'transactions']) {
      await trx.raw(`select setval(pg_get_serial_sequence(?, 'id'), greatest((select max(id) from ??), 1))`, [table, table]);
    }
  });
  await db.raw('analyze');
}
