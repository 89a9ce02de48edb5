// The large, deterministic data set of issue 7 (npm run bench:data): 2 partners (USD and MXN),
// merchants, clerks, customers each with a device and a finance order, 5 payments per order over a
// year with their cash / commission transactions (in store) or vendor notification records (vendor),
// carts, the device catalogue and demo-style principals. Generated inside Postgres with
// generate_series and hashtext-based pseudo-randomness, batch by batch (one statement, so one
// transaction, per batch): the same N always gives the same rows. The ledger it leaves passes
// src/ledger/check.ts.
import type { Knex } from 'knex';
import { displayPrefix, hashApiKey } from '../modules/auth/keys.js';
import { pendingMigrations } from './migrate.js';
import { databaseHoldsData, DEMO_VENDOR_SCHEMA, SeedRefused } from './seed.js';

export const DEFAULT_BENCH_CUSTOMERS = 200_000;
const BATCH = 50_000;
const DAY_S = 86_400;
/** The data set's year ends here (fixed, so the same N gives the same rows). */
export const BENCH_END = new Date('2026-11-01T00:00:00Z');
const END_S = Math.floor(BENCH_END.getTime() / 1000);
const START_S = END_S - 365 * DAY_S;

export interface BenchProgress {
  table: string;
  /** Rows written so far, over all tables, and the expected total. */
  done: number;
  total: number;
  tableDone: number;
  tableTotal: number;
}

export interface BenchDataOptions {
  customers?: number;
  production: boolean;
  onProgress?: (progress: BenchProgress) => void;
}

export interface BenchKey {
  key: string;
  kind: 'partner' | 'retail' | 'vendor' | 'operator';
  owner: string;
}

export interface BenchDataResult {
  customers: number;
  merchants: number;
  clerks: number;
  rows: Record<string, number>;
  totalRows: number;
  seconds: number;
  /** The named keys (printed by the CLI); the store keys are bench-store-key-<n>, n = 1..storeKeys. */
  keys: BenchKey[];
  storeKeys: number;
  partners: Array<{ id: number; name: string; currency: string; commissionRateBps: number }>;
  vendor: { id: number; name: string };
  end: Date;
}

export const BENCH_PARTNERS = [
  { id: 1, name: 'Bench Retail US', currency: 'USD', commissionRateBps: 500 },
  { id: 2, name: 'Bench Retail MX', currency: 'MXN', commissionRateBps: 250 },
] as const;

export const BENCH_KEYS: readonly BenchKey[] = [
  { key: 'bench-partner-key-1', kind: 'partner', owner: 'Bench Retail US' },
  { key: 'bench-retail-key-1', kind: 'retail', owner: 'Bench Retail US' },
  { key: 'bench-partner-key-2', kind: 'partner', owner: 'Bench Retail MX' },
  { key: 'bench-retail-key-2', kind: 'retail', owner: 'Bench Retail MX' },
  { key: 'bench-vendor-key', kind: 'vendor', owner: 'bench-vendor' },
  { key: 'bench-operator-key', kind: 'operator', owner: 'Operations' },
];

const FAMILIES = ['Galaxy A', 'Galaxy S', 'Moto G', 'Moto E', 'iPhone', 'Redmi', 'Pixel', 'Nokia G'];

/** Tables with a serial id: their sequences move past the ids the generator used. */
const SERIAL_TABLES = [
  'partners', 'operators', 'payment_vendors', 'api_keys', 'device_families', 'device_models', 'merchants',
  'clerks', 'customers', 'devices', 'carts', 'finance_orders', 'payments', 'adjustments', 'transactions',
] as const;

/** A non-negative pseudo-random int8 from a salt and a SQL expression: stable for the same input. */
const h = (salt: string, expr: string) => `(hashtext('${salt}:' || (${expr})::text)::int8 + 2147483648)`;

/** Sizes for N customers: everything proportional to the default 200,000 (merchants and clerks even). */
export function benchSizes(customers: number) {
  const merchants = 2 * Math.max(2, Math.round(customers / 8000));
  const clerks = 2 * Math.max(5, Math.round(customers / 800));
  return { customers, merchants, clerks, payments: 5 * customers, storeKeys: Math.max(500, clerks) };
}

export async function generateBenchData(db: Knex, options: BenchDataOptions): Promise<BenchDataResult> {
  if (options.production) throw new SeedRefused('the bench data set is never loaded in production mode (NODE_ENV=production)');
  const N = Math.floor(options.customers ?? DEFAULT_BENCH_CUSTOMERS);
  if (!Number.isSafeInteger(N) || N < 2 || N > 5_000_000) throw new SeedRefused('--customers must be an integer between 2 and 5,000,000');
  const pending = await pendingMigrations(db);
  if (pending.length) throw new SeedRefused(`the database is not migrated (pending: ${pending.join(', ')}); run npm run db:migrate first`);
  const sizes = benchSizes(N);
  const M = sizes.merchants;
  const C = sizes.clerks;
  const started = process.hrtime.bigint();

  // Expected rows per table (vendor payments are ~1/5, idempotency keys ~1/10 of in-store payments).
  const expected: Array<[string, number]> = [
    ['customers', N], ['devices', N], ['device_directory', N], ['carts', Math.floor(N / 3)], ['finance_orders', N],
    ['payments', 5 * N], ['transactions', N + 8 * N], ['vendor_notifications', N], ['idempotency_keys', Math.round(0.4 * N)],
  ];
  const total = expected.reduce((sum, [, n]) => sum + n, 0);
  let done = 0;
  const rows: Record<string, number> = {};
  const report = (table: string, tableDone: number, tableTotal: number) =>
    options.onProgress?.({ table, done, total, tableDone, tableTotal });

  const count = (result: unknown): number => {
    const r = result as { rowCount?: number | null; affectedRows?: number };
    return Number(r.rowCount ?? r.affectedRows ?? 0);
  };

  /** Runs `sql(lo, hi)` for consecutive ranges of 1..upTo, each its own statement (and transaction). */
  async function batched(table: string, upTo: number, tableTotal: number, sql: (lo: number, hi: number) => string): Promise<void> {
    let tableDone = 0;
    for (let lo = 1; lo <= upTo; lo += BATCH) {
      const hi = Math.min(upTo, lo + BATCH - 1);
      const written = count(await db.raw(sql(lo, hi)));
      tableDone += written;
      done += written;
      rows[table] = (rows[table] ?? 0) + written;
      report(table, tableDone, Math.max(tableTotal, tableDone));
    }
  }

  // Principals and catalogue: one transaction, with the emptiness check inside it (like db:seed).
  await db.transaction(async (trx) => {
    await trx.raw('lock table partners in exclusive mode');
    if (await databaseHoldsData(trx)) throw new SeedRefused('the database already holds data; the bench data set is only loaded into an empty migrated database');
    await trx('partners').insert(BENCH_PARTNERS.map((p) => ({ id: p.id, name: p.name, commission_rate_bps: p.commissionRateBps })));
    await trx('operators').insert({ id: 1, name: 'Operations' });
    await trx('payment_vendors').insert({ id: 1, name: 'bench-vendor', display_name: 'Bench Vendor', request_schema: JSON.stringify(DEMO_VENDOR_SCHEMA) });
    const owners: Record<string, Record<string, number>> = {
      'Bench Retail US': { partner_id: 1 }, 'Bench Retail MX': { partner_id: 2 }, 'bench-vendor': { vendor_id: 1 }, Operations: { operator_id: 1 },
    };
    const keyRows = BENCH_KEYS.map(({ key, kind, owner }) => ({ key_hash: hashApiKey(key), display_prefix: displayPrefix(key), kind, label: `bench ${kind} key`, ...owners[owner] }));
    // One retail key per store counter: a realistically sized key table (some revoked, some expired).
    for (let n = 1; n <= sizes.storeKeys; n++) {
      const key = `bench-store-key-${n}`;
      keyRows.push({
        key_hash: hashApiKey(key), display_prefix: displayPrefix(key), kind: 'retail', label: `bench store key ${n}`, partner_id: ((n - 1) % 2) + 1,
        ...(n % 10 === 0 ? { revoked_at: new Date(BENCH_END.getTime() - n * 60_000) } : {}),
        ...(n % 10 === 5 ? { expires_at: new Date(BENCH_END.getTime() + 365 * DAY_S * 1000) } : {}),
      } as (typeof keyRows)[number]);
    }
    for (let i = 0; i < keyRows.length; i += 1000) await trx('api_keys').insert(keyRows.slice(i, i + 1000));
    await trx('device_families').insert(FAMILIES.map((name, i) => ({ id: i + 1, name })));
    await trx('device_models').insert(
      FAMILIES.flatMap((family, i) => [1, 2, 3].map((n) => ({ id: i * 3 + n, family_id: i + 1, make_model: `${family.toUpperCase()} M${n}`, name: `${family} ${n}` }))),
    );
    // Merchants and clerks: id m belongs to partner ((m - 1) % 2) + 1.
    await trx.raw(`insert into merchants (partner_id, id, name, street, city, state, postal_code, country, phone_number)
      select (m - 1) % 2 + 1, m, 'Store ' || m, m || ' Main St', case (m - 1) % 2 when 0 then 'Austin' else 'Monterrey' end,
        case (m - 1) % 2 when 0 then 'TX' else 'NL' end, lpad((10000 + m)::text, 5, '0'), case (m - 1) % 2 when 0 then 'US' else 'MX' end,
        '555-01' || lpad(m::text, 4, '0')
      from generate_series(1, ${M}) m`);
    await trx.raw(`insert into clerks (partner_id, id, person_uuid, name, phone_number, email)
      select (c - 1) % 2 + 1, c, md5('clerk:' || c)::uuid, 'Clerk ' || c, '1555' || lpad(c::text, 7, '0'), 'clerk' || c || '@bench.example'
      from generate_series(1, ${C}) c`);
  });

  // Per customer g (1..N): partner pi + 1 where pi = (g - 1) % 2; its merchant and clerk share the partner.
  const pi = (g: string) => `((${g} - 1) % 2)`;
  const merchantOf = (g: string) => `(2 * (${h('m', g)} % ${M / 2}) + ${pi(g)} + 1)`;
  const clerkOf = (g: string, salt = 'c') => `(2 * (${h(salt, g)} % ${C / 2}) + ${pi(g)} + 1)`;
  // Terms of order g: USD for partner 1, MXN (x18) for partner 2; repayable = monthly * months >= 1.3 * financed.
  const terms = (lo: number, hi: number) => `
    select g, ${pi('g')} + 1 as partner_id, case ${pi('g')} when 0 then 'USD' else 'MXN' end as currency, purchase, down, months,
      ((purchase - down) * 13 / 10 + months - 1) / months as monthly,
      to_timestamp(${START_S} + ${h('ord', 'g')} % ${355 * DAY_S}) as ordered_at
    from (select g, (15000 + ${h('pur', 'g')} % 85000) * case ${pi('g')} when 0 then 1 else 18 end as purchase,
                 (array[12, 18, 24])[1 + ${h('mo', 'g')} % 3] as months from generate_series(${lo}, ${hi}) g) a,
      lateral (select a.purchase * (10 + ${h('dp', 'a.g')} % 21) / 100 as down) b`;
  // Payment j (1..5N) is the k-th (k = (j - 1) / N) payment of order (j - 1) % N + 1: a month's or a week's cost.
  const weekly = (monthly: string) => `((${monthly}) * 12 + 51) / 52`;
  const paymentAmount = (j: string, monthly: string) => `(case when ${h('amt', j)} % 4 = 0 then ${weekly(monthly)} else ${monthly} end)`;

  await batched('customers', N, N, (lo, hi) => `insert into customers (partner_id, id, name, phone_number, email, address, national_id, created_at)
    select ${pi('g')} + 1, g, 'Customer ' || g, case ${pi('g')} when 0 then '1555' || lpad(g::text, 7, '0') else '5255' || lpad(g::text, 8, '0') end,
      case when g % 3 = 0 then 'customer' || g || '@example.com' end, case when g % 2 = 0 then g || ' Elm St' end,
      case when g % 5 <> 0 then 'ID-' || g end, to_timestamp(${START_S} + ${h('ord', 'g')} % ${355 * DAY_S}) - interval '1 hour'
    from generate_series(${lo}, ${hi}) g`);
  // IMEI: '35' and 13 digits of g * 7919 mod 10^13 (a bijection), tag: 'DT' and 8 hex digits of g * 2654435761 mod 2^32: both unique.
  await batched('devices', N, N, (lo, hi) => `insert into devices (partner_id, id, customer_id, model_id, tag, imei, sim_number, phone_number, description, last_seen_at, created_at)
    select ${pi('g')} + 1, g, g, 1 + ${h('mdl', 'g')} % ${FAMILIES.length * 3},
      'DT' || upper(lpad(to_hex((g::int8 * 2654435761) % 4294967296), 8, '0')),
      '35' || lpad(((g::int8 * 7919) % 10000000000000)::text, 13, '0'),
      case when g % 3 <> 0 then '8901' || lpad(g::text, 16, '0') end,
      case when g % 2 = 0 then case ${pi('g')} when 0 then '1666' || lpad(g::text, 7, '0') else '5266' || lpad(g::text, 8, '0') end end,
      (array['Black, 64 GB', 'Blue, 128 GB', 'White, 32 GB', null])[1 + ${h('dsc', 'g')} % 4],
      case when g % 4 <> 0 then to_timestamp(${END_S} - ${h('seen', 'g')} % ${30 * DAY_S}) end,
      to_timestamp(${START_S} + ${h('ord', 'g')} % ${355 * DAY_S}) - interval '1 hour'
    from generate_series(${lo}, ${hi}) g`);
  await batched('device_directory', N, N, (lo, hi) => `insert into device_directory (imei, tag, partner_id, device_id)
    select imei, tag, partner_id, id from devices where id between ${lo} and ${hi}`);
  // A cart for every third customer (cart id g / 3), the cart its order was financed from.
  await batched('carts', N, Math.floor(N / 3), (lo, hi) => `insert into carts (partner_id, id, cart_tag, customer_id, merchant_id, clerk_id, device_model_id,
      device_description, currency, purchase_minor, down_payment_minor, price_pre_tax_minor, monthly_cost_minor, weekly_cost_minor, months, created_at)
    select t.partner_id, t.g / 3, 'CART-' || t.g, t.g, ${merchantOf('t.g')}, ${clerkOf('t.g')}, 1 + ${h('mdl', 't.g')} % ${FAMILIES.length * 3}, null,
      t.currency, t.purchase, t.down, t.purchase * 100 / 116, t.monthly, ${weekly('t.monthly')}, t.months, t.ordered_at - interval '10 minutes'
    from (${terms(lo, hi)}) t where t.g % 3 = 0`);
  await batched('finance_orders', N, N, (lo, hi) => `insert into finance_orders (partner_id, id, customer_id, device_id, merchant_id, clerk_id, cart_id, currency,
      purchase_minor, down_payment_minor, price_pre_tax_minor, monthly_cost_minor, weekly_cost_minor, months, total_paid_minor, ordered_at, created_at)
    select t.partner_id, t.g, t.g, t.g, ${merchantOf('t.g')}, ${clerkOf('t.g')}, case when t.g % 3 = 0 then t.g / 3 end, t.currency,
      t.purchase, t.down, t.purchase * 100 / 116, t.monthly, ${weekly('t.monthly')}, t.months,
      (select sum(${paymentAmount(`k * ${N} + t.g`, 't.monthly')}) from generate_series(0, 4) k), t.ordered_at, t.ordered_at
    from (${terms(lo, hi)}) t`);
  // Payment k of an order falls in the (k+1)-th sixth of the time between its order and the year's end.
  await batched('payments', 5 * N, 5 * N, (lo, hi) => `insert into payments (partner_id, id, finance_order_id, channel, amount_minor, currency, merchant_id, clerk_id,
      vendor_id, vendor_reference, received_at, created_at)
    select o.partner_id, j, o.id, v.channel, ${paymentAmount('j', 'o.monthly_cost_minor')}, o.currency,
      case when v.channel = 'in_store' then o.merchant_id end, case when v.channel = 'in_store' then (2 * (${h('pc', 'j')} % ${C / 2}) + ${pi('o.id')} + 1) end,
      case when v.channel = 'vendor' then 1 end, case when v.channel = 'vendor' then 'BV-' || j end, r.at, r.at
    from generate_series(${lo}, ${hi}) j
    join finance_orders o on o.partner_id = ((j - 1) % ${N}) % 2 + 1 and o.id = (j - 1) % ${N} + 1,
    lateral (select case when ${h('ch', 'j')} % 5 = 0 then 'vendor' else 'in_store' end as channel) v,
    lateral (select ${END_S} - extract(epoch from o.ordered_at)::int8 as span) s,
    lateral (select to_timestamp(extract(epoch from o.ordered_at)::int8 + ((j - 1) / ${N} + 1) * s.span / 6 + ${h('rcv', 'j')} % greatest(s.span / 12, 1)) as at) r`);
  // Transactions: finance (id g), cash (id N + j) and commission (id 6N + j, when not zero).
  const txTotal = N + 8 * N;
  let txDone = 0;
  const txBatch = async (sql: string) => {
    const written = count(await db.raw(sql));
    txDone += written;
    done += written;
    rows.transactions = (rows.transactions ?? 0) + written;
    report('transactions', txDone, Math.max(txTotal, txDone));
  };
  for (let lo = 1; lo <= N; lo += BATCH) {
    const hi = Math.min(N, lo + BATCH - 1);
    await txBatch(`insert into transactions (partner_id, id, type, amount_minor, currency, occurred_at, merchant_id, clerk_id, finance_order_id, created_at)
      select partner_id, id, 'finance', purchase_minor - down_payment_minor, currency, ordered_at, merchant_id, clerk_id, id, ordered_at
      from finance_orders where id between ${lo} and ${hi}`);
  }
  for (let lo = 1; lo <= 5 * N; lo += BATCH) {
    const hi = Math.min(5 * N, lo + BATCH - 1);
    await txBatch(`insert into transactions (partner_id, id, type, amount_minor, currency, occurred_at, merchant_id, clerk_id, finance_order_id, payment_id, created_at)
      select partner_id, ${N} + id, 'cash', -amount_minor, currency, received_at, merchant_id, clerk_id, finance_order_id, id, received_at
      from payments where id between ${lo} and ${hi} and channel = 'in_store'`);
    await txBatch(`insert into transactions (partner_id, id, type, amount_minor, currency, occurred_at, merchant_id, finance_order_id, payment_id, created_at)
      select p.partner_id, ${6 * N} + p.id, 'commission', c.amount, p.currency, p.received_at, p.merchant_id, p.finance_order_id, p.id, p.received_at
      from payments p join partners pr on pr.id = p.partner_id,
      lateral (select (p.amount_minor * pr.commission_rate_bps + 5000) / 10000 as amount) c
      where p.id between ${lo} and ${hi} and p.channel = 'in_store' and c.amount > 0`);
  }
  // The receipt a payment answered with: the balance after it (its order's payments up to k), the next due date.
  const receipt = (extra: string) => `
    from payments p
    join finance_orders o on o.partner_id = p.partner_id and o.id = p.finance_order_id
    join devices d on d.partner_id = o.partner_id and d.id = o.device_id,
    lateral (select sum(${paymentAmount(`k * ${N} + o.id`, 'o.monthly_cost_minor')})::int8 as paid
             from generate_series(0, (p.id - 1) / ${N}) k) c,
    lateral (select jsonb_build_object('partnerId', p.partner_id::text, 'paymentId', p.id::text, 'amountMinor', p.amount_minor::text,
      'time', floor(extract(epoch from p.received_at))::int8, 'deviceTag', d.tag,
      'remainingMinor', (o.monthly_cost_minor * o.months - c.paid)::text, 'currency', trim(o.currency),
      'nextPayment', floor(extract(epoch from o.ordered_at))::int8 + (30 + c.paid * 30 / o.monthly_cost_minor) * ${DAY_S},
      'fullyPaid', false) as body) r
    ${extra}`;
  await batched('vendor_notifications', 5 * N, N, (lo, hi) => `insert into vendor_notifications (vendor_id, reference, request_hash, partner_id, payment_id, response_body, created_at)
    select p.vendor_id, p.vendor_reference,
      encode(sha256(convert_to(json_build_object('amount', (p.amount_minor / 100) || '.' || lpad((p.amount_minor % 100)::text, 2, '0'),
        'currency', trim(p.currency), 'deviceTag', d.tag, 'paymentVendor', 'bench-vendor', 'reference', p.vendor_reference)::text, 'UTF8')), 'hex'),
      p.partner_id, p.id, r.body, p.received_at
    ${receipt(`where p.id between ${lo} and ${hi} and p.channel = 'vendor'`)}`);
  // An Idempotency-Key for about one in-store payment in ten, kept its 24 hours from the payment.
  await batched('idempotency_keys', 5 * N, Math.round(0.4 * N), (lo, hi) => `insert into idempotency_keys (partner_id, idempotency_key, request_hash, response_status, response_body, created_at, expires_at)
    select p.partner_id, 'bench-idem-' || p.id, encode(sha256(convert_to('bench-idem:' || p.id, 'UTF8')), 'hex'), 200, r.body, p.received_at, p.received_at + interval '1 day'
    ${receipt(`where p.id between ${lo} and ${hi} and p.channel = 'in_store' and ${h('idem', 'p.id')} % 10 = 0`)}`);

  for (const table of SERIAL_TABLES) {
    await db.raw(`select setval(pg_get_serial_sequence(?, 'id'), greatest((select max(id) from ??), 1))`, [table, table]);
  }
  await db.raw('analyze');

  const totalRows = Object.values(rows).reduce((sum, n) => sum + n, 0);
  return {
    customers: N, merchants: M, clerks: C, rows, totalRows,
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    keys: [...BENCH_KEYS], storeKeys: sizes.storeKeys,
    partners: BENCH_PARTNERS.map((p) => ({ ...p })), vendor: { id: 1, name: 'bench-vendor' }, end: BENCH_END,
  };
}
