// The bench's baseline for record-customer-payment: the floor of this stack for an in-store
// payment. The simplest fast handler on `pg` (no GraphQL, no knex) running the statements the
// service sends for GET /v1/record-customer-payment.php, in the same order and the same text (the
// service's own statements, src/modules/payments/queries.ts inStoreFactsSql and inStoreCreditSql, each
// value given by name; test/rest/statements-payment.test.ts pins that the sequence stays equal), each a named prepared statement, each in its own implicit transaction:
//
//   the key by its hash (as the service's auth reads it)
//   one read: the merchant's and clerk's names, the order with its partner's commission rate and its
//     device's tag, the stored Idempotency-Key record if any (a live one is replayed, or 409), and
//     the payment's id from the payments sequence when the payment will pass
//   one write: the running total (only from the total read), the payment, its cash and commission
//     transactions, its events, [Idempotency-Key: the key's own expired record replaced, its record]
//   pg_notify of the events, after the write committed
//
// It does the checks the SQL needs, and no more: the amount a positive decimal of at most two places,
// the currency the order's, the amount not above the balance (the read itself draws no id for an
// amount the partner does not take); the commission at the partner's rate
// (basis points, half up). A write that wrote nothing (the total moved, or the key was claimed
// meanwhile) is read and decided again. It answers the same top-level JSON as the service. It does
// not check key kinds or request limits, keep request logs, or trace.
//
// bench/baseline-server.ts serves it beside the lookup baseline (one baseline process for the bench);
// test/rest/statements-payment.test.ts runs `recordCustomerPayment` against the service's statements.
import { createHash, randomBytes } from 'node:crypto';
import type { SqlFragment } from '../src/db/sqlFragment.js';
import { commissionOn, formatAmount, parsePaymentAmount } from '../src/kernel/money.js';
import { inStoreCreditSql, inStoreFactsSql, type PaymentTransaction } from '../src/modules/payments/queries.js';
import type { PaymentReceiptSnapshot } from '../src/modules/payments/rows.js';
import type { TimelinePlan } from '../src/modules/timeline/schedule.js';
import { KEY_SQL, named, positioned } from './baselineSql.js';

/** A row as pg returns it: columns of any type, read by name. */
type Row = Record<string, unknown>;
interface Statement {
  name?: string;
  text: string;
  values?: unknown[];
}
/** What of pg.Pool this needs. */
export interface Pool {
  query(statement: Statement): Promise<{ rows: Row[] }>;
}

/** The service's statement as pg runs it by name: its text with $n placeholders (kept per text), its values. */
const texts = new Map<string, string>();
const namedStatement = (statement: SqlFragment) => {
  let text = texts.get(statement.sql);
  if (text === undefined) {
    text = positioned(statement.sql);
    texts.set(statement.sql, text);
  }
  return named(text, [...statement.bindings]);
};
const NOTIFY_SQL = `select pg_notify($1, message) from unnest($2::text[]) as message`;

const DAY_MS = 86_400_000;
const KEY_LIFETIME_MS = DAY_MS;
const ID = /^[1-9][0-9]{0,17}$/;
const CURRENCY = /^[A-Z]{3}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const base62 = (value: bigint, width: number) => {
  let text = '';
  for (let i = 0; i < width; i++, value /= 62n) text = BASE62[Number(value % 62n)] + text;
  return text;
};
const eventId = (at: Date) =>
  `evt_${base62(BigInt(at.getTime()), 10)}${base62(BigInt(`0x${randomBytes(12).toString('hex')}`), 16)}`;
/** Minor units as the contract's JSON number (both partners' currencies have two places). */
const amount = (minor: bigint) => Number(minor) / 100;
const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

/** What an Idempotency-Key's record keeps of the payment: the service's own receipt type. */
type Receipt = PaymentReceiptSnapshot;
const bodyOf = (receipt: Receipt) => ({
  valid: true,
  payment: {
    id: Number(receipt.paymentId),
    time: receipt.time,
    deviceTag: receipt.deviceTag,
    remainingBalance: amount(BigInt(receipt.remainingMinor)),
    currency: receipt.currency,
    nextPayment: receipt.nextPayment,
    fullyPaid: receipt.fullyPaid,
  },
});

export interface Answer {
  status: number;
  body: unknown;
}
const refused = (status: number, message: string): Answer => ({ status, body: { valid: false, message } });
const isKeyClaimed = (error: unknown) =>
  (error as { code?: string }).code === '23505' &&
  (error as { constraint?: string }).constraint === 'idempotency_keys_pkey';

/**
 * The lock timeline's part of the write (src/modules/timeline/schedule.ts timelineParts), on the
 * default policy (grace 0, reminders 3 and 1 days): the order's instants closed and those of its new
 * deadline made, when the payment moves it. It writes no unlock or release event (the service's own).
 */
function timelinePlan(facts: Row, paidBefore: bigint, paid: bigint, fullyPaid: boolean, now: Date): TimelinePlan {
  const monthly = BigInt(facts.o__monthly_cost_minor as string);
  const lockAtOf = (total: bigint) =>
    new Date((facts.o__ordered_at as Date).getTime() + Number(30n + (total * 30n) / monthly) * DAY_MS);
  const before = lockAtOf(paidBefore);
  const after = fullyPaid ? null : lockAtOf(paid);
  const moving = fullyPaid || after?.getTime() !== before.getTime();
  const instants: TimelinePlan['instants'] = [];
  const instant = (kind: string, daysLeft: number | null, due: Date) =>
    instants.push({ kind, days_left: daysLeft, due_at: due.toISOString(), fire_at: due.toISOString() });
  if (moving && after) {
    for (const days of [3, 1]) {
      const due = new Date(after.getTime() - days * DAY_MS);
      if (due.getTime() > now.getTime()) instant('reminder', days, due);
    }
    instant('lock', null, after);
  }
  return { moving, lockAt: moving ? after : null, instants, now };
}

/** The route's parameters, each its text or '' when absent or repeated. */
function paymentParameters(query: Record<string, unknown>): [string, string, string, string, string, string] {
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : '');
  return ['key', 'merchantId', 'salesClerkId', 'financeOrderId', 'amount', 'currency'].map(text) as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
}

/** The payment's one read (FACTS_SQL): the key's record, the store, the clerk, the order, the drawn id. */
async function readFacts(
  pool: Pool,
  at: {
    paymentId: string | null;
    currency: string;
    minor: bigint;
    now: Date;
    partnerId: string;
    merchantId: string;
    clerkId: string;
    orderId: string;
    idempotencyKey: string | undefined;
  },
): Promise<Row> {
  const { paymentId, currency, minor, now, partnerId, merchantId, clerkId, orderId, idempotencyKey } = at;
  const read = inStoreFactsSql(partnerId, {
    merchantId,
    clerkId,
    financeOrderId: orderId,
    idempotencyKey: idempotencyKey ?? null,
    currency,
    amountMinor: minor.toString(),
    now,
    paymentId,
  });
  return (await pool.query(namedStatement(read))).rows[0]!;
}

/** GET /v1/record-customer-payment.php, from its query parameters and Idempotency-Key header. */
export async function recordCustomerPayment(
  pool: Pool,
  query: Record<string, unknown>,
  idempotencyKey: string | undefined,
): Promise<Answer> {
  const [key, merchantId, clerkId, orderId, amountText, currency] = paymentParameters(query);
  const now = new Date();
  const principal = (await pool.query(named(KEY_SQL, [createHash('sha256').update(key, 'utf8').digest('hex'), now, 1])))
    .rows[0];
  if (!principal?.partner_id) return refused(401, 'unknown key');
  const partnerId = String(principal.partner_id);
  if (!ID.test(merchantId) || !ID.test(clerkId) || !ID.test(orderId) || !CURRENCY.test(currency))
    return refused(400, 'merchantId, salesClerkId, financeOrderId and currency are required');
  const parsed = parsePaymentAmount(amountText, currency);
  if ('problem' in parsed) return refused(400, parsed.problem);
  const { minor } = parsed;
  const requestHash = createHash('sha256')
    .update(JSON.stringify([merchantId, clerkId, orderId, minor.toString(), currency]))
    .digest('hex');

  // A write that wrote nothing (another payment moved the order's total, or the key was claimed) reads
  // again, keeping the payment id the first read drew.
  let paymentId: string | null = null;
  for (let round = 0; round < 10; round++) {
    const facts = await readFacts(pool, {
      paymentId,
      currency,
      minor,
      now,
      partnerId,
      merchantId,
      clerkId,
      orderId,
      idempotencyKey,
    });
    paymentId = facts.payment_id == null ? null : String(facts.payment_id);
    if (idempotencyKey !== undefined && facts.key_request_hash != null) {
      if ((facts.key_expires_at as Date).getTime() > now.getTime()) {
        if (facts.key_request_hash !== requestHash) return refused(409, 'Idempotency-Key reused');
        return { status: 200, body: bodyOf(facts.key_response_body as Receipt) };
      }
    }
    if (facts.merchant_name === null) return refused(404, `merchant ${merchantId} not found`);
    if (facts.clerk_name === null) return refused(404, `clerk ${clerkId} not found`);
    if (facts.o__id === null) return refused(404, `finance order ${orderId} not found`);
    if (facts.o__currency !== currency) return refused(400, `the order is in ${facts.o__currency}`);
    const monthly = BigInt(facts.o__monthly_cost_minor as string);
    const repayable = monthly * BigInt(facts.o__months as number);
    const paidBefore = BigInt(facts.o__total_paid_minor as string);
    if (minor > repayable - paidBefore) return refused(400, 'the payment is more than the remaining balance');

    const commission = commissionOn(minor, facts.o__commission_rate_bps as number);
    const entries: PaymentTransaction[] = [
      { type: 'cash', amount_minor: (-minor).toString(), clerk_id: clerkId },
      ...(commission > 0n
        ? [{ type: 'commission' as const, amount_minor: commission.toString(), clerk_id: null }]
        : []),
    ];
    const paid = paidBefore + minor;
    const remaining = repayable - paid;
    const fullyPaid = remaining <= 0n;
    const paidThroughDays = 30n + (paid * 30n) / monthly;
    // lockAt: paid-through + the partner's grace, read with the order (decisions.md 15).
    const graceMs = Number(facts.o__lock_grace_hours) * 3_600_000;
    const nextPayment = fullyPaid
      ? null
      : seconds(new Date((facts.o__ordered_at as Date).getTime() + Number(paidThroughDays) * DAY_MS + graceMs));
    const time = seconds(now);
    // The payment's id, drawn by the read: the events are built with it. Past the checks above, the
    // read draws none only for an amount its partner does not take (flexible amounts off).
    if (paymentId === null) return refused(400, 'the amount is not one of the repayment options');
    const data = paymentEvents({
      paymentId: Number(paymentId),
      time,
      minor,
      currency,
      merchantId,
      clerkId,
      orderId,
      facts,
      entries,
      remaining,
      nextPayment,
      fullyPaid,
    });
    // The receipt as the service stores it for a replay.
    const receipt: Receipt = {
      partnerId,
      paymentId,
      amountMinor: minor.toString(),
      time,
      deviceTag: facts.o__device_tag as string,
      remainingMinor: remaining.toString(),
      currency,
      nextPayment,
      fullyPaid,
    };
    const eventIds = data.map(() => eventId(now));
    const write = inStoreCreditSql({
      payment: {
        partner_id: partnerId,
        id: paymentId,
        finance_order_id: orderId,
        channel: 'in_store',
        amount_minor: minor.toString(),
        currency,
        merchant_id: merchantId,
        clerk_id: clerkId,
        received_at: now,
        reversible_until: new Date(now.getTime() + 72 * 3_600_000),
      },
      totalPaidSeen: paidBefore.toString(),
      transactions: entries,
      timeline: timelinePlan(facts, paidBefore, paid, fullyPaid, now),
      events: {
        traceparent: null,
        ids: eventIds,
        types: data.map(([type]) => type),
        occurredAt: data.map(() => now.toISOString()),
        data: data.map(([, body]) => JSON.stringify(body)),
        guarded: data.map(() => false),
      },
      // The unlock code's counter (decisions.md 21): the bench's devices have no credential, so none.
      credentialKeyHash: null,
      key:
        idempotencyKey === undefined
          ? null
          : {
              key: idempotencyKey,
              requestHash,
              receipt,
              expiresAt: new Date(now.getTime() + KEY_LIFETIME_MS),
              expiredBy: now,
            },
    });
    let written: Row | undefined;
    try {
      written = (await pool.query(namedStatement(write))).rows[0];
    } catch (error) {
      if (isKeyClaimed(error)) continue;
      throw error;
    }
    if (!written) continue;
    await pool.query(named(NOTIFY_SQL, ['dfs_events', eventIds.map((id) => `${partnerId}:${id}`)]));
    return { status: 200, body: bodyOf(receipt) };
  }
  return refused(503, 'the order kept changing');
}

/** What the write stores as the payment's events: the payment, each of its transactions, a paid-off order. */
function paymentEvents(of: {
  paymentId: number;
  time: number;
  minor: bigint;
  currency: string;
  merchantId: string;
  clerkId: string;
  orderId: string;
  facts: Row;
  entries: Array<{ type: string; amount_minor: string; clerk_id: string | null }>;
  remaining: bigint;
  nextPayment: number | null;
  fullyPaid: boolean;
}): Array<[string, unknown]> {
  const {
    paymentId,
    time,
    minor,
    currency,
    merchantId,
    clerkId,
    orderId,
    facts,
    entries,
    remaining,
    nextPayment,
    fullyPaid,
  } = of;
  const merchant = { id: Number(merchantId), name: facts.merchant_name };
  const payment = { id: paymentId, timestamp: time, amount: amount(minor) };
  return [
    [
      'payment.recorded',
      {
        // The graph's dialect (docs/decisions.md 41), as the service writes it.
        payment: {
          id: String(paymentId),
          time,
          amount: formatAmount(minor, currency),
          currency,
          channel: 'IN_STORE',
          deviceTag: facts.o__device_tag,
          financeOrderId: orderId,
        },
        financeOrder: { id: orderId, remainingBalance: formatAmount(remaining, currency), nextPayment, fullyPaid },
      },
    ],
    ...entries.map((entry): [string, unknown] => [
      'transaction.created',
      {
        type: entry.type,
        time,
        amount: amount(BigInt(entry.amount_minor)),
        currency,
        merchant,
        payment,
        financeOrder: { id: Number(orderId) },
        ...(entry.clerk_id ? { salesClerk: { id: Number(clerkId), name: facts.clerk_name } } : {}),
      },
    ]),
    ...(fullyPaid
      ? [['finance_order.paid_off', { id: Number(orderId), currency, remainingBalance: 0 }] as [string, unknown]]
      : []),
  ];
}
