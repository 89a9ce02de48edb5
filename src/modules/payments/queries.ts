import { joinedRow, sourcesOf } from '../../db/joinedRows.js';
import type { DbOrTrx } from '../../db/knex.js';
import { prepared, runShaped, runSql } from '../../db/prepared.js';
import { type SqlFragment, sql, sqlText } from '../../db/sqlFragment.js';
import { appendEventsOf, appendEventsPart, appendedBy, type EventArrays } from '../events/queries.js';
import type { EventRow, NewEvent } from '../events/rows.js';
import { dayRuleColumnsOf, totalBuyingDaysSql } from '../financeOrders/paidThroughSql.js';
import { COLUMNS as ORDER_COLUMNS } from '../financeOrders/queries.js';
import type { FinanceOrderForPayment } from '../financeOrders/rows.js';
import { violatesUnique } from '../inputs.js';
import { PARTNER_SETTINGS_COLUMNS } from '../partners/settings.js';
import { type TenantKey, tenantKeyArrays, whereTenantKeys } from '../tenancy.js';
import { LIFTED, type TimelineChange, type TimelinePlan, timelineParts, timelinePlanOf } from '../timeline/schedule.js';
import type { IdempotencyRecord, PaymentReceiptSnapshot, PaymentRow } from './rows.js';

/** The columns of a PaymentRow (a transaction list selects them through its join too). */
export const COLUMNS = [
  'partner_id',
  'id',
  'finance_order_id',
  'channel',
  'amount_minor',
  'currency',
  'merchant_id',
  'clerk_id',
  'vendor_id',
  'vendor_reference',
  'received_at',
  'reversible_until',
] as const;

export function paymentsByKeys(db: DbOrTrx, keys: readonly TenantKey[]): Promise<PaymentRow[]> {
  return whereTenantKeys(db<PaymentRow>('payments').select(...COLUMNS), ['partner_id', 'id'], keys);
}

/** The payments of several orders, oldest first (paymentHistory order). */
export function paymentsOfOrders(db: DbOrTrx, orders: readonly TenantKey[]): Promise<PaymentRow[]> {
  const keys = tenantKeyArrays(orders);
  const build = () =>
    whereTenantKeys(db('payments').select(...COLUMNS), ['partner_id', 'finance_order_id'], keys).orderBy([
      'received_at',
      'id',
    ]);
  return runShaped<PaymentRow>(db, { shape: 'payments of orders', values: keys.bound, build });
}

/** A partner transaction a payment makes (in store: its cash, and its commission when there is one). */
export interface PaymentTransaction {
  type: 'cash' | 'commission';
  /** Signed from the partner's side: int8 minor units of the payment's currency, as a string. */
  amount_minor: string;
  clerk_id: string | null;
}

/** The unlock code counter a payment's code took (decisions.md 21): the credential's hash and the new value. */
export interface UnlockCounterTaken {
  credentialKeyHash: string;
  counter: number;
}

/**
 * The counter's part of a payment's write: the live credential's counter moves on by one, only when
 * the payment was written, and answers its new value. An update counts from the row's newest version,
 * so the vendor's payment, whose read of the counter may predate the lock it waited for (the order's
 * row alone is locked and read again), takes the counter from here. An in-store payment made its code
 * with the counter its read saw plus one, and the same value is written: its write is refused whole
 * when the order's total or the counter moved since the read (counterUnmoved: a reversal moves the
 * total back, decisions.md 44).
 */
function unlockCounted(partnerId: string, credentialKeyHash: string | null): SqlFragment {
  // Pinned to the payment's partner as every statement of a partner's request is (sharded by partner).
  return sql`update device_credentials set unlock_code_counter = unlock_code_counter + 1
    where partner_id = ${partnerId} and key_hash = ${credentialKeyHash} and ended_at is null and exists (select from payment)
    returning unlock_code_counter`;
}

/**
 * An order's release_at as a payment of `amountMinor` sets it, in the order's update: a payoff's window
 * closing, `reversibleUntil` (decisions.md 44); any other payment leaves it as it is. Both doors' writes.
 */
export const payoffReleaseAtSql = (amountMinor: string, reversibleUntil: Date): SqlFragment =>
  sql`case when total_paid_minor + ${amountMinor}::int8 >= monthly_cost_minor * months then ${reversibleUntil}::timestamptz else release_at end`;

/**
 * The in-store write's guard on its code's counter: the live credential's counter is still the one the
 * read saw. The order's total alone no longer tells: a reversal lowers it (decisions.md 44), so a
 * reversal and another payment of the same amount between the read and the write leave the total as
 * it was while the other payment took the counter the code was made with; the write then writes
 * nothing, and the payment is decided again from a new read.
 */
export function counterUnmoved(partnerId: string, credentialKeyHash: string | null, seen: number | null): SqlFragment {
  if (credentialKeyHash === null || seen === null) return sqlText('true');
  return sql`exists (select from device_credentials dc where dc.partner_id = ${partnerId}
    and dc.key_hash = ${credentialKeyHash} and dc.ended_at is null and dc.unlock_code_counter = ${seen}::int)`;
}

/**
 * Credits a payment to its order, which the caller has locked, in one statement: the order's running
 * total (and its releaseAt when it pays the order off), the payment row, its partner transactions (each takes the new payment's id, order,
 * merchant, currency and time), and its unlock code's counter when the receipt carries a code. The
 * schema's check refuses a running total past the repayable total; if any part fails, none of it is
 * written.
 */
export async function creditPayment(
  trx: DbOrTrx,
  row: Omit<PaymentRow, 'id'>,
  transactions: readonly PaymentTransaction[],
  credentialKeyHash: string | null = null,
): Promise<{ payment: PaymentRow; totalPaidMinor: string; unlockCodeCounter: number | null }> {
  const counted = unlockCounted(row.partner_id, credentialKeyHash);
  const releaseAt = payoffReleaseAtSql(row.amount_minor, row.reversible_until);
  const [written] = await prepared(trx.queryBuilder())
    .with(
      'credited',
      trx('finance_orders')
        .where({ partner_id: row.partner_id, id: row.finance_order_id })
        .update({
          total_paid_minor: trx.raw('total_paid_minor + ?::int8', [row.amount_minor]),
          release_at: trx.raw(releaseAt.sql, [...releaseAt.bindings]),
        })
        .returning('total_paid_minor'),
    )
    .with(
      'payment',
      trx('payments')
        .insert(row)
        .returning([...COLUMNS]),
    )
    .with(
      'ledger',
      trx.raw(
        `insert into transactions (partner_id, type, amount_minor, currency, occurred_at, merchant_id, finance_order_id, payment_id, clerk_id)
       select payment.partner_id, entry.type, entry.amount_minor, payment.currency, payment.received_at, payment.merchant_id,
              payment.finance_order_id, payment.id, entry.clerk_id
       from payment, jsonb_to_recordset(?::jsonb) as entry (type text, amount_minor int8, clerk_id int8)`,
        [JSON.stringify(transactions)],
      ),
    )
    .with('counted', trx.raw(counted.sql, counted.bindings))
    .select(
      'payment.*',
      'credited.total_paid_minor',
      trx.raw('(select unlock_code_counter from counted) as unlock_code_counter'),
    )
    .from('payment')
    .crossJoin(trx.raw('credited'));
  const {
    total_paid_minor: totalPaidMinor,
    unlock_code_counter: unlockCodeCounter,
    ...payment
  } = written as PaymentRow & { total_paid_minor: string; unlock_code_counter: number | null };
  return { payment, totalPaidMinor, unlockCodeCounter };
}

/** Everything an in-store payment decides from, as one read found it. */
export interface InStorePaymentFacts {
  /** The store's and the clerk's names when they are the partner's own (else null). */
  merchantName: string | null;
  clerkName: string | null;
  /** The partner's order, with its partner's commission rate and its device's tag. */
  order: FinanceOrderForPayment | null;
  /** The record of the request's Idempotency-Key, live or expired. */
  key: IdempotencyRecord | null;
  /** The payment's id: drawn by this read when the payment will pass (or carried from a round before); else null. */
  paymentId: string | null;
}

const ORDER = joinedRow<FinanceOrderForPayment>('o', {
  ...sourcesOf('o', ORDER_COLUMNS),
  commission_rate_bps: 'p.commission_rate_bps',
  ...sourcesOf('p', PARTNER_SETTINGS_COLUMNS),
  device_tag: 'd.tag',
  device_imei: 'd.imei',
  credential_key_hash: 'dc.key_hash',
  unlock_key: 'dc.unlock_key',
  unlock_key_sealed: 'dc.unlock_key_sealed',
  unlock_code_counter: 'dc.unlock_code_counter',
});

/** What the read draws a payment id for: the amount as the request's currency reads it (null: it does not parse). */
interface InStorePaymentAsked {
  merchantId: string;
  clerkId: string;
  financeOrderId: string;
  idempotencyKey: string | null;
  currency: string;
  amountMinor: string | null;
  /** Real time: what an Idempotency-Key's expiry is compared with. */
  now: Date;
  /** The id a round before drew, kept: a lost round draws no second one. */
  paymentId: string | null;
}

const ORDER_SELECT = sqlText(ORDER.select.join(', '));
/** The key's record, as the read's facts name it; none for a payment without a key. */
const KEY_RECORD = sqlText(
  'k.request_hash as key_request_hash, k.response_body as key_response_body, k.expires_at as key_expires_at',
);
const NO_KEY_RECORD = sqlText(
  'null::text as key_request_hash, null::jsonb as key_response_body, null::timestamptz as key_expires_at',
);
const NOTHING = sqlText('');

/**
 * The read, its values in their places (bench/baseline-payment.ts sends it too). It draws the payment's id from the
 * payments sequence only when the payment will be written: its store, clerk and order found, no live
 * record of its key, the order open (decisions.md 44), the order's currency, the amount within the order's own check (the schema's
 * total_paid_minor <= monthly_cost_minor * months), and an amount the partner takes (any, with
 * flexible amounts; else the new total is the repayable total, or the one an option of
 * financeOrders/repayment.ts makes, financeOrders/paidThroughSql.ts totalBuyingDaysSql), so a refusal numbers
 * nothing, as a refusal never has; record.ts still decides, from the facts. A round after a lost one
 * carries the id it drew. It reads the device's live credential too (its sealed unlock key and counter),
 * for the receipt's unlock code (decisions.md 21 and 35). Its facts are read from the partner's row on,
 * every table pinned to the partner, in a CTE kept whole (materialized) and the id drawn outside it: on
 * Citus the facts are one shard's one task and the sequence is the coordinator's (decisions.md 48); a
 * sequence read beside them would split the read into a task per table. A payment without a key joins
 * no key record: a join on a null key loses its partner pin in Citus's planner, which then reads the
 * records of every shard (decisions.md 51).
 */
export function inStoreFactsSql(partnerId: string, asked: InStorePaymentAsked): SqlFragment {
  const amount = asked.amountMinor;
  const keyed = asked.idempotencyKey !== null;
  return sql`with facts as materialized (
  select m.name as merchant_name, c.name as clerk_name, ${ORDER_SELECT},
    ${keyed ? KEY_RECORD : NO_KEY_RECORD},
    m.name is not null and c.name is not null and o.currency = ${asked.currency}
        and o.closed_at is null
        and o.total_paid_minor + ${amount}::int8 <= o.monthly_cost_minor * o.months
        and (p.flexible_amount_enabled or o.total_paid_minor + ${amount}::int8 in (
          select o.monthly_cost_minor * o.months
          union all
          select ${totalBuyingDaysSql(dayRuleColumnsOf('o'), sqlText('days'))}
          from unnest(p.repayment_days) as days where days > 0))
        ${keyed ? sql`and (k.expires_at is null or k.expires_at <= ${asked.now}::timestamptz)` : NOTHING} as will_pass
  from partners p
  left join merchants m on m.partner_id = ${partnerId} and m.id = ${asked.merchantId}
  left join clerks c on c.partner_id = ${partnerId} and c.id = ${asked.clerkId}
  left join finance_orders o on o.partner_id = ${partnerId} and o.id = ${asked.financeOrderId}
  left join devices d on d.partner_id = ${partnerId} and d.id = o.device_id
  left join device_credentials dc on dc.partner_id = ${partnerId} and dc.device_id = d.id and dc.ended_at is null
  ${keyed ? sql`left join idempotency_keys k on k.partner_id = ${partnerId} and k.idempotency_key = ${asked.idempotencyKey}` : NOTHING}
  where p.id = ${partnerId})
  select facts.*, coalesce(${asked.paymentId}::int8, case when facts.will_pass then nextval('payments_id_seq') end) as payment_id
  from facts`;
}

/**
 * The one read of an in-store payment (it takes no lock): the partner's store, clerk and order (with
 * its partner's rate and its device's tag), the record of its Idempotency-Key if any, and the
 * payment's id when it will pass.
 */
export async function inStorePaymentFacts(
  db: DbOrTrx,
  partnerId: string,
  ids: InStorePaymentAsked,
): Promise<InStorePaymentFacts> {
  const read = inStoreFactsSql(partnerId, ids);
  const [row] = await runSql<Record<string, unknown>>(db, read.sql, read.bindings);
  if (!row) throw new Error('the in-store facts read answered no row'); // it reads from the partner's row: always one
  return {
    merchantName: (row.merchant_name as string | null) ?? null,
    clerkName: (row.clerk_name as string | null) ?? null,
    order: ORDER.take(row),
    key:
      row.key_request_hash == null
        ? null
        : {
            request_hash: row.key_request_hash as string,
            response_body: row.key_response_body as PaymentReceiptSnapshot,
            expires_at: row.key_expires_at as Date,
          },
    paymentId: row.payment_id == null ? null : String(row.payment_id),
  };
}

/** An in-store payment as decided from its facts: what the one write writes if the guards let it. */
export interface InStoreCredit {
  /** The payment's row, its id drawn by the read. */
  row: PaymentRow;
  /** The order's running total as the facts saw it: the write credits the payment only from it. */
  totalPaidSeen: string;
  transactions: readonly PaymentTransaction[];
  /** The events, built with the payment's id, its unlock or release last. */
  events: readonly NewEvent[];
  /**
   * The payment's change of its order's lockAt, and its events written only if the order's lock had
   * fired (the unlock). Absent: the order's lock timeline is left as it is.
   */
  timeline?: { change: TimelineChange; guarded: ReadonlySet<NewEvent> };
  /**
   * With an Idempotency-Key: its record, the receipt to replay; `expiredBy` the real time the read
   * compared the key's record with: a record of the key expired by then is replaced.
   */
  key: { key: string; requestHash: string; receipt: PaymentReceiptSnapshot; expiresAt: Date; expiredBy: Date } | null;
  /** The unlock code's counter, when the receipt carries a code. */
  unlockCounter?: UnlockCounterTaken | null;
}

/** A payment the write recorded: its events as written. */
export interface InStoreCredited {
  events: Array<Pick<EventRow, 'partner_id' | 'id' | 'type'>>;
}

/** Whether a write failed because the Idempotency-Key's record was written meanwhile (the statement wrote nothing). */
export const isKeyClaimedMeanwhile = (error: unknown): boolean => violatesUnique(error, 'idempotency_keys_pkey');

/**
 * The one write of an in-store payment, one statement in one implicit transaction, each part written
 * only if the one before it was: the running total, only from the total the facts saw and while its
 * code's counter is the one the facts saw (a concurrent payment on the order moves both, a reversal
 * the total, back: either makes this write nothing, and no update is lost; the schema's check still
 * refuses a total past the repayable), and only while the order is open (a close between the read and
 * the write makes it nothing), with its releaseAt when it pays the order off (payoffReleaseAtSql); then
 * the payment, with the id its read drew; its cash and commission transactions; its order's lock
 * timeline (timeline/schedule.ts: its instants closed and made anew, and whether the device was
 * locked); its events, built with that id, the unlock only if it was; its
 * unlock code's counter (unlockCounted). With an Idempotency-Key, the key's own expired record goes
 * first, found by the primary key (no other record is read: the rest are purged by keyRetention.ts,
 * decisions.md 23), then the key's record is inserted: a live record of the key (another request's,
 * committed meanwhile) fails the whole statement on the primary key, so nothing of it stays.
 */
export function inStoreCreditSql(write: InStoreWrite): SqlFragment {
  const { payment, key } = write;
  const keyParts = key
    ? sql`,
  replaced as (
    delete from idempotency_keys
    where partner_id = ${payment.partner_id} and idempotency_key = ${key.key} and expires_at <= ${key.expiredBy}::timestamptz and exists (select from payment)
    returning 1),
  claimed as (
    insert into idempotency_keys (partner_id, idempotency_key, request_hash, response_status, response_body, created_at, expires_at)
    select payment.partner_id, ${key.key}, ${key.requestHash}, 200, ${JSON.stringify(key.receipt)}::jsonb, ${payment.received_at}::timestamptz, ${key.expiresAt}::timestamptz
    from payment cross join (select count(*) from replaced) as replacing)`
    : NOTHING;
  return sql`with credited as (
    update finance_orders set total_paid_minor = total_paid_minor + ${payment.amount_minor}::int8,
      release_at = ${payoffReleaseAtSql(payment.amount_minor, payment.reversible_until)}
    where partner_id = ${payment.partner_id} and id = ${payment.finance_order_id} and total_paid_minor = ${write.totalPaidSeen}::int8
      and closed_at is null
      and ${counterUnmoved(payment.partner_id, write.credentialKeyHash, write.unlockCounterSeen ?? null)}
    returning partner_id, id),
  payment as (
    insert into payments (partner_id, id, finance_order_id, channel, amount_minor, currency, merchant_id, clerk_id, received_at, reversible_until)
    select credited.partner_id, ${payment.id}::int8, credited.id, ${payment.channel}, ${payment.amount_minor}::int8, ${payment.currency}, ${payment.merchant_id}::int8, ${payment.clerk_id}::int8, ${payment.received_at}::timestamptz, ${payment.reversible_until}::timestamptz from credited
    returning partner_id, id, finance_order_id, currency, merchant_id, received_at),
  ledger as (
    insert into transactions (partner_id, type, amount_minor, currency, occurred_at, merchant_id, finance_order_id, payment_id, clerk_id)
    select payment.partner_id, entry.type, entry.amount_minor, payment.currency, payment.received_at, payment.merchant_id,
           payment.finance_order_id, payment.id, entry.clerk_id
    from payment cross join jsonb_to_recordset(${JSON.stringify(write.transactions)}::jsonb) as entry (type text, amount_minor int8, clerk_id int8)),
  ${timelineParts('credited', payment.partner_id, write.timeline)},
  logged as (
    ${appendEventsPart('payment', write.events, LIFTED)}),
  counted as (
    ${unlockCounted(payment.partner_id, write.credentialKeyHash)})${keyParts}
  select id, ${LIFTED} as lifted from payment`;
}

/** What the in-store write writes, each value by its name (bench/baseline-payment.ts writes its own too). */
export interface InStoreWrite {
  payment: Pick<
    PaymentRow,
    | 'partner_id'
    | 'id'
    | 'finance_order_id'
    | 'channel'
    | 'amount_minor'
    | 'currency'
    | 'merchant_id'
    | 'clerk_id'
    | 'received_at'
    | 'reversible_until'
  >;
  totalPaidSeen: string;
  transactions: readonly PaymentTransaction[];
  timeline: TimelinePlan;
  events: EventArrays;
  /** The credential whose unlock code counter moves on (null: none). */
  credentialKeyHash: string | null;
  /** Its counter as the read saw it: the code was made with the next one (absent or null: not guarded). */
  unlockCounterSeen?: number | null;
  key: InStoreCredit['key'];
}

/** The write for `credit`, not yet run: its statement, and its events as they will be written. */
export function inStoreCreditStatement(credit: InStoreCredit) {
  const events = appendEventsOf(credit.row.partner_id, credit.events, new Set(credit.timeline?.guarded));
  const statement = inStoreCreditSql({
    payment: credit.row,
    totalPaidSeen: credit.totalPaidSeen,
    transactions: credit.transactions,
    timeline: timelinePlanOf(credit.timeline?.change ?? null),
    events: events.arrays,
    credentialKeyHash: credit.unlockCounter?.credentialKeyHash ?? null,
    unlockCounterSeen: credit.unlockCounter ? credit.unlockCounter.counter - 1 : null,
    key: credit.key,
  });
  return { sql: statement.sql, bindings: statement.bindings, events: events.written };
}

/**
 * Runs the write: the payment recorded, or null when the order's total had moved (nothing written).
 * A key claimed meanwhile fails it (isKeyClaimedMeanwhile), with nothing written.
 */
export async function creditInStorePayment(db: DbOrTrx, credit: InStoreCredit): Promise<InStoreCredited | null> {
  const statement = inStoreCreditStatement(credit);
  const [written] = await runSql<{ id: string; lifted: boolean }>(db, statement.sql, statement.bindings);
  if (!written) return null;
  return {
    events: appendedBy(
      db,
      statement.events
        .filter((event) => !event.guarded || written.lifted)
        .map(({ partner_id, id, type }) => ({ partner_id, id, type })),
    ),
  };
}
