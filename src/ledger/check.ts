// The ledger's invariants, checked on a whole database: what every payment path must leave behind.
// Structural checks are SQL over the tables; the commission rule is checked with the money module's
// own function, page by page, so the rule is not written a second time. Partner by partner (decisions.md
// 50): every invariant is one partner's, and a statement whose driving table names the partner, the
// others joined to it by partner_id, runs whole on the partner's shard on Citus (its correlated
// subqueries too). The joined tables are not pinned a second time: Postgres then took a pin on each side
// for two facts and sorted a partner's whole ledger once a page.
import type { DbOrTrx } from '../db/knex.js';
import { type SqlFragment, sql, sqlText } from '../db/sqlFragment.js';
import { commissionOn } from '../kernel/money.js';

export interface LedgerReport {
  checked: {
    financeOrders: number;
    payments: number;
    transactions: number;
    vendorNotifications: number;
    idempotencyKeys: number;
    paymentReferences: number;
  };
  problems: string[];
}

const PAGE = 5000;
const MAX_LISTED = 50;

interface Check {
  name: string;
  /** The rows of `partner` that break the invariant. */
  sql: (partner: string) => SqlFragment;
  describe: (row: Record<string, unknown>) => string;
}

// Each query returns the rows that break its invariant; an empty result is a clean ledger.
const CHECKS: Check[] = [
  {
    name: 'running total equals the sum of payments less the reversed ones',
    sql: (partner) => sql`select o.partner_id, o.id, o.total_paid_minor, coalesce(p.paid, 0)::int8 as paid
          from finance_orders o
          left join (select p.partner_id, p.finance_order_id, sum(p.amount_minor) as paid from payments p
                     where p.partner_id = ${partner} and not exists (select from payment_reversals r where r.partner_id = p.partner_id and r.payment_id = p.id)
                     group by p.partner_id, p.finance_order_id) p
            on p.partner_id = o.partner_id and p.finance_order_id = o.id
          where o.partner_id = ${partner} and o.total_paid_minor <> coalesce(p.paid, 0)`,
    describe: (r) =>
      `finance order ${r.id}: running total ${r.total_paid_minor} but its unreversed payments add up to ${r.paid}`,
  },
  {
    name: 'no balance below zero',
    sql: (
      partner,
    ) => sql`select id, total_paid_minor, cleared_minor, monthly_cost_minor * months as repayable from finance_orders
          where partner_id = ${partner} and total_paid_minor < 0 or cleared_minor < 0 or total_paid_minor + cleared_minor > monthly_cost_minor * months`,
    describe: (r) =>
      `finance order ${r.id}: paid ${r.total_paid_minor} and cleared ${r.cleared_minor} of a repayable ${r.repayable}`,
  },
  {
    // decisions.md 44: a close clears the balance by one adjustment naming the order, with its transaction.
    name: "a closed order's cleared_minor is minus its closing adjustment, its balance 0",
    sql: (
      partner,
    ) => sql`select o.id, o.closed_reason, o.cleared_minor, o.monthly_cost_minor * o.months - o.total_paid_minor - o.cleared_minor as balance,
                 count(a.id) as closing
          from finance_orders o
          left join adjustments a on a.partner_id = o.partner_id and a.finance_order_id = o.id and a.kind = 'payment'
            and a.amount_minor = -o.cleared_minor
            and a.notes like (case o.closed_reason when 'WRITE_OFF' then 'write-off of financeOrder ' else 'device returned for financeOrder ' end) || o.id || ': %'
            and exists (select from transactions t where t.partner_id = a.partner_id and t.adjustment_id = a.id
                          and t.type = 'adjustment' and t.amount_minor = a.amount_minor)
          where o.partner_id = ${partner} and (o.closed_at is not null or o.closed_reason is not null or o.cleared_minor <> 0)
          group by o.partner_id, o.id
          having o.closed_at is null or o.closed_reason is null or o.cleared_minor <= 0 or count(a.id) <> 1
              or o.monthly_cost_minor * o.months - o.total_paid_minor - o.cleared_minor <> 0`,
    describe: (r) =>
      `finance order ${r.id} (closed ${r.closed_reason ?? 'without a reason'}): cleared ${r.cleared_minor}, balance ${r.balance}, ${r.closing} closing adjustments instead of 1`,
  },
  {
    name: "payments in their order's currency",
    sql: (partner) => sql`select p.id, p.currency, o.currency as order_currency from payments p
          join finance_orders o on o.partner_id = p.partner_id and o.id = p.finance_order_id
          where p.partner_id = ${partner} and p.currency <> o.currency`,
    describe: (r) => `payment ${r.id} is in ${r.currency}, its order in ${r.order_currency}`,
  },
  {
    name: 'one cash transaction of minus the amount per in-store payment',
    sql: (partner) => sql`select p.id, count(t.id) as cash from payments p
          left join transactions t on t.partner_id = p.partner_id and t.payment_id = p.id and t.type = 'cash' and t.amount_minor = -p.amount_minor
          where p.partner_id = ${partner} and p.channel = 'in_store' group by p.partner_id, p.id having count(t.id) <> 1`,
    describe: (r) => `in-store payment ${r.id} has ${r.cash} matching cash transactions instead of 1`,
  },
  {
    name: 'no partner transaction for a vendor payment',
    sql: (partner) =>
      sql`select p.id, t.type from payments p join transactions t on t.partner_id = p.partner_id and t.payment_id = p.id
          where p.partner_id = ${partner} and p.channel = 'vendor'`,
    describe: (r) => `vendor payment ${r.id} has a ${r.type} transaction; vendor payments are not the partner's cash`,
  },
  {
    name: 'one finance transaction of +financeAmount per order',
    sql: (partner) => sql`select o.id, count(t.id) as finance from finance_orders o
          left join transactions t on t.partner_id = o.partner_id and t.finance_order_id = o.id and t.type = 'finance'
            and t.amount_minor = o.purchase_minor - o.down_payment_minor
          where o.partner_id = ${partner}
          group by o.partner_id, o.id having count(t.id) <> 1`,
    describe: (r) => `finance order ${r.id} has ${r.finance} matching finance transactions instead of 1`,
  },
  {
    name: 'vendor references unique per vendor',
    sql: (
      partner,
    ) => sql`select vendor_id, vendor_reference, count(*) as uses from payments where partner_id = ${partner} and channel = 'vendor'
          group by vendor_id, vendor_reference having count(*) > 1`,
    describe: (r) =>
      `vendor ${r.vendor_id} reference ${JSON.stringify(r.vendor_reference)} credited ${r.uses} payments`,
  },
  {
    // A record is unique by vendor and reference across partners and names its payment: so a reference
    // credited twice, even to two partners, leaves one payment without the record naming it.
    name: 'every vendor payment has its notification record, and every record its payment',
    sql: (partner) => sql`select 'payment' as side, p.id::text as id from payments p
            where p.partner_id = ${partner} and p.channel = 'vendor' and not exists (select 1 from vendor_notifications n
              where n.vendor_id = p.vendor_id and n.reference = p.vendor_reference and n.partner_id = p.partner_id and n.payment_id = p.id)
          union all
          select 'notification', n.reference from vendor_notifications n
            where n.partner_id = ${partner} and not exists (select 1 from payments p where p.partner_id = n.partner_id
              and p.id = n.payment_id and p.vendor_id = n.vendor_id and p.vendor_reference = n.reference)`,
    describe: (r) =>
      r.side === 'payment'
        ? `vendor payment ${r.id} has no notification record`
        : `notification ${JSON.stringify(r.id)} names no matching payment`,
  },
  {
    name: 'every idempotency key answers with a payment that exists',
    sql: (partner) => sql`select k.partner_id, k.idempotency_key from idempotency_keys k
          where k.partner_id = ${partner} and not exists (select 1 from payments p
            where p.partner_id = k.partner_id and p.id::text = k.response_body->>'paymentId')`,
    describe: (r) => `idempotency key ${JSON.stringify(r.idempotency_key)} of partner ${r.partner_id} names no payment`,
  },
  {
    name: 'a paid payment reference has exactly one payment, of its order, amount and currency',
    sql: (partner) => sql`select r.code, r.payment_id from payment_references r
          where r.partner_id = ${partner} and r.status = 'PAID' and not exists (select 1 from payments p where p.partner_id = r.partner_id and p.id = r.payment_id
            and p.finance_order_id = r.finance_order_id and p.amount_minor = r.amount_minor and p.currency = r.currency)`,
    describe: (r) => `payment reference ${r.code} is paid by ${r.payment_id ?? 'no payment'}, which does not match it`,
  },
  {
    name: 'no payment pays two payment references',
    sql: (
      partner,
    ) => sql`select partner_id, payment_id, count(*) as uses from payment_references where partner_id = ${partner} and payment_id is not null
          group by partner_id, payment_id having count(*) > 1`,
    describe: (r) => `payment ${r.payment_id} pays ${r.uses} payment references`,
  },
  {
    name: 'an open or cancelled payment reference has no payment',
    sql: (partner) =>
      sql`select code, status, payment_id from payment_references where partner_id = ${partner} and status <> 'PAID' and payment_id is not null`,
    describe: (r) => `payment reference ${r.code} is ${r.status} but names payment ${r.payment_id}`,
  },
  {
    // No foreign key holds this since the log is partitioned (decisions.md 25): retention deletes
    // an event's deliveries with it.
    name: 'every webhook delivery has its event',
    sql: (partner) => sql`select d.id, d.event_id from webhook_deliveries d
          where d.partner_id = ${partner} and not exists (select 1 from events e where e.partner_id = d.partner_id and e.id = d.event_id)`,
    describe: (r) => `webhook delivery ${r.id} names event ${r.event_id}, which is not in the log`,
  },
  {
    // decisions.md 44: a reversal takes back exactly its payment, on its order.
    name: "every reversal is its payment's amount, currency and order",
    sql: (partner) => sql`select r.id, r.payment_id, r.amount_minor, p.amount_minor as paid from payment_reversals r
          join payments p on p.partner_id = r.partner_id and p.id = r.payment_id
          where r.partner_id = ${partner} and (r.amount_minor <> p.amount_minor or r.currency <> p.currency or r.finance_order_id <> p.finance_order_id)`,
    describe: (r) => `reversal ${r.id} takes back ${r.amount_minor} of payment ${r.payment_id}, which paid ${r.paid}`,
  },
  {
    name: "a reversed in-store payment's transactions sum to zero, its opposites tied to its reversal",
    sql: (partner) => sql`select p.id, r.id as reversal_id, coalesce(sum(t.amount_minor), 0)::int8 as total,
            count(t.id) filter (where t.reversal_id is not null and t.reversal_id <> r.id) as strays
          from payments p
          join payment_reversals r on r.partner_id = p.partner_id and r.payment_id = p.id
          left join transactions t on t.partner_id = p.partner_id and t.payment_id = p.id
          where p.partner_id = ${partner} and p.channel = 'in_store' group by p.partner_id, p.id, r.id
          having coalesce(sum(t.amount_minor), 0) <> 0 or count(t.id) filter (where t.reversal_id is not null and t.reversal_id <> r.id) > 0
            or count(t.id) filter (where t.reversal_id = r.id) <> count(t.id) filter (where t.reversal_id is null)`,
    describe: (r) =>
      `reversed in-store payment ${r.id}: its transactions sum to ${r.total} (reversal ${r.reversal_id})`,
  },
  {
    name: 'an unreversed payment has no opposite transactions',
    sql: (
      partner,
    ) => sql`select t.id, t.payment_id from transactions t where t.partner_id = ${partner} and t.reversal_id is not null and not exists (
            select from payment_reversals r where r.partner_id = t.partner_id and r.id = t.reversal_id and r.payment_id = t.payment_id)`,
    describe: (r) => `transaction ${r.id} answers payment ${r.payment_id} for a reversal of another payment`,
  },
  {
    name: 'no payment reversed twice',
    sql: (
      partner,
    ) => sql`select partner_id, payment_id, count(*) as reversals from payment_reversals where partner_id = ${partner}
          group by partner_id, payment_id having count(*) > 1`,
    describe: (r) => `payment ${r.payment_id} is reversed ${r.reversals} times`,
  },
];

// A transaction's event is found by what its legacy object names (it carries no transaction id): its
// payment and type (one cash, at most one commission per payment), its order (one finance
// transaction per order), its adjustment (one transaction each).
// A reversal's opposites (decisions.md 44) carry the payment's too, and the other sign: 'r' marks them.
const TRANSACTION_KEY =
  sqlText(`case t.type when 'finance' then 'f' || t.finance_order_id when 'adjustment' then 'a' || t.adjustment_id
  else t.type || t.payment_id || case when t.reversal_id is null then '' else 'r' end end`);
const EVENT_KEY = sqlText(`case e.data->>'type' when 'finance' then 'f' || (e.data->'financeOrder'->>'id')
  when 'adjustment' then 'a' || (e.data->'adjustment'->>'id') else (e.data->>'type') || (e.data->'payment'->>'id')
  || case when ((e.data->>'type') = 'cash') = ((e.data->>'amount')::numeric > 0) then 'r' else '' end end`);

/** The event log's checks: every change within the retention window (since) has its event. */
// Each as a set difference (EXCEPT), hashed whatever the planner expects: the rows since `since` are
// mostly the newest, which the statistics have not counted yet, and a partner's pin made a nested loop
// of `not exists` look cheap (one scan of the log per payment: minutes on the bench's data set).
const EVENT_CHECKS: Array<Omit<Check, 'sql'> & { sql: (partner: string, since: Date) => SqlFragment }> = [
  {
    name: 'every payment has its payment.recorded event',
    sql: (partner, since) => sql`select id from (
            select p.id::text as id from payments p where p.partner_id = ${partner} and p.received_at >= ${since}
            except
            select e.data->'payment'->>'id' from events e where e.partner_id = ${partner} and e.type = 'payment.recorded') missing`,
    describe: (r) => `payment ${r.id} has no payment.recorded event`,
  },
  {
    name: 'every transaction has its transaction.created event',
    sql: (partner, since) => sql`with missing as (
            select ${TRANSACTION_KEY} as key from transactions t where t.partner_id = ${partner} and t.occurred_at >= ${since}
            except
            select ${EVENT_KEY} from events e where e.partner_id = ${partner} and e.type = 'transaction.created')
          select t.id, t.type from transactions t join missing m on m.key = ${TRANSACTION_KEY}
          where t.partner_id = ${partner} and t.occurred_at >= ${since}`,
    describe: (r) => `${r.type} transaction ${r.id} has no transaction.created event`,
  },
];

const rowsOf = (result: { rows?: unknown[] } | unknown[]): Array<Record<string, unknown>> =>
  (Array.isArray(result) ? result : (result.rows ?? [])) as Array<Record<string, unknown>>;

/** Commission per in-store payment: exactly commissionOn(amount, partner rate), or none when that is zero. */
async function commissionProblems(db: DbOrTrx, partner: string): Promise<string[]> {
  const problems: string[] = [];
  let afterId = '0';
  for (;;) {
    // Each payment's commissions by its own index lookup (lateral): a join would sort the partner's
    // whole ledger for every page, or, on statistics that have not seen the newest payments, scan it.
    const statement = sql`select p.id, p.amount_minor, pr.commission_rate_bps as rate, c.commissions
         from payments p
         join partners pr on pr.id = p.partner_id
         cross join lateral (select array_agg(t.amount_minor::text) as commissions from transactions t
           where t.partner_id = p.partner_id and t.payment_id = p.id and t.type = 'commission' and t.reversal_id is null) c
         where p.partner_id = ${partner} and p.channel = 'in_store' and p.id > ${afterId}
         order by p.id limit ${PAGE}`;
    const page = rowsOf(await db.raw(statement.sql, statement.bindings));
    for (const row of page) {
      const expected = commissionOn(BigInt(row.amount_minor as string), Number(row.rate));
      const found = (row.commissions as string[] | null) ?? [];
      const wanted = expected > 0n ? [expected.toString()] : [];
      if (found.length !== wanted.length || found[0] !== wanted[0]) {
        problems.push(
          `in-store payment ${row.id}: commission ${JSON.stringify(found)} where ${JSON.stringify(wanted)} is due`,
        );
      }
    }
    if (page.length < PAGE) return problems;
    afterId = String(page[page.length - 1]!.id);
  }
}

/** Events are kept this long (EVENT_RETENTION_DAYS): only changes since then must still have theirs. */
interface EventWindow {
  now?: Date;
  retentionDays?: number;
}

export async function checkLedger(db: DbOrTrx, events: EventWindow = {}): Promise<LedgerReport> {
  const { now = new Date(), retentionDays = 30 } = events;
  const since = new Date(now.getTime() - retentionDays * 86_400_000);
  const count = async (table: string) => Number(rowsOf(await db.raw(`select count(*)::int8 as n from ${table}`))[0]!.n);
  const checked = {
    financeOrders: await count('finance_orders'),
    payments: await count('payments'),
    transactions: await count('transactions'),
    vendorNotifications: await count('vendor_notifications'),
    idempotencyKeys: await count('idempotency_keys'),
    paymentReferences: await count('payment_references'),
  };
  const problems: string[] = [];
  const partners = rowsOf(await db.raw('select id from partners order by id')).map((row) => String(row.id));
  const found = async (check: Omit<Check, 'sql'>, statement: SqlFragment) => {
    for (const row of rowsOf(await db.raw(statement.sql, statement.bindings)))
      problems.push(`${check.name}: ${check.describe(row)}`);
  };
  // Check by check, then partner by partner within it: the report lists problems by invariant, as it did.
  for (const check of CHECKS) for (const partner of partners) await found(check, check.sql(partner));
  for (const check of EVENT_CHECKS) for (const partner of partners) await found(check, check.sql(partner, since));
  for (const partner of partners)
    problems.push(
      ...(await commissionProblems(db, partner)).map((problem) => `commission on in-store payments: ${problem}`),
    );
  return { checked, problems };
}

export function formatLedgerReport(report: LedgerReport): string {
  const { checked, problems } = report;
  const lines = [
    `checked ${checked.financeOrders} finance orders, ${checked.payments} payments, ${checked.transactions} transactions, ` +
      `${checked.vendorNotifications} vendor notifications, ${checked.idempotencyKeys} idempotency keys, ` +
      `${checked.paymentReferences} payment references`,
    problems.length === 0 ? 'ledger is consistent' : `${problems.length} problem(s):`,
    ...problems.slice(0, MAX_LISTED).map((problem) => `  - ${problem}`),
    ...(problems.length > MAX_LISTED ? [`  ... and ${problems.length - MAX_LISTED} more`] : []),
  ];
  return `${lines.join('\n')}\n`;
}
