// The bench's baseline for record-customer-payment (issue 15): the floor of this stack for an in-store
// payment. The simplest fast handler on `pg` (no GraphQL, no knex) running the statements the
// service sends for GET /v1/record-customer-payment.php, in the same order and the same text (captured
// with test/support/statements.ts; test/statements-payment.test.ts pins that they stay equal), each a
// named prepared statement, in one transaction on one pooled connection:
//
//   the key by its hash (outside the transaction, as the service's auth reads it)
//   BEGIN
//   [Idempotency-Key: its advisory lock; its stored record (a live one is replayed)]
//   the merchant's and the clerk's names in one statement (both the key's partner's, else 404)
//   the order locked FOR UPDATE, with its partner's commission rate and its device's tag
//   one statement: the running total, the payment, its cash and commission transactions
//   the payment's events (the outbox rows webhooks and subscriptions read)
//   [Idempotency-Key: its record stored, the partner's expired ones purged]
//   COMMIT
//   pg_notify of the events, after the commit
//
// It does the checks the SQL needs, and no more: the amount a positive decimal of at most two places,
// the currency the order's, the amount not above the balance; the commission at the partner's rate
// (basis points, half up). It answers the same top-level JSON as the service. It does not check key
// kinds or request limits, keep request logs, or trace.
//
// bench/baseline-server.ts serves it beside the lookup baseline (one baseline process for the bench);
// test/statements-payment.test.ts runs `recordCustomerPayment` against the service's statements.
import { createHash, randomBytes } from 'node:crypto';
import type { PaymentReceiptSnapshot } from '../src/modules/payments/rows.js';
import { commissionOn, parsePaymentAmount } from '../src/money.js';
import { KEY_SQL, named } from './baselineSql.js';

/** A row as pg returns it: columns of any type, read by name. */
type Row = Record<string, unknown>;
interface Statement {
  name?: string;
  text: string;
  values?: unknown[];
}
interface Connection {
  query(statement: Statement | string): Promise<{ rows: Row[] }>;
  release(error?: Error | boolean): void;
}
/** What of pg.Pool this needs. */
export interface Pool {
  query(statement: Statement): Promise<{ rows: Row[] }>;
  connect(): Promise<Connection>;
}

const LOCK_SQL = `select pg_advisory_xact_lock(hashtextextended($1, 0))`;
const IDEMPOTENCY_SQL = `select * from "idempotency_keys" where "partner_id" = $1 and "idempotency_key" = $2 limit $3`;
const MERCHANT_AND_CLERK_SQL = `select (select "name" from "merchants" where "partner_id" = $1 and "id" = $2) as merchant, (select "name" from "clerks" where "partner_id" = $3 and "id" = $4) as clerk limit $5`;
const ORDER_SQL = `select "o"."partner_id", "o"."id", "o"."customer_id", "o"."device_id", "o"."merchant_id", "o"."clerk_id", "o"."cart_id", "o"."currency", "o"."purchase_minor", "o"."down_payment_minor", "o"."price_pre_tax_minor", "o"."monthly_cost_minor", "o"."weekly_cost_minor", "o"."months", "o"."total_paid_minor", "o"."ordered_at", "p"."commission_rate_bps", "d"."tag" as "device_tag" from "finance_orders" as "o" inner join "partners" as "p" on "p"."id" = "o"."partner_id" inner join "devices" as "d" on "d"."partner_id" = "o"."partner_id" and "d"."id" = "o"."device_id" where "o"."partner_id" = $1 and "o"."id" = $2 limit $3 for update of "o"`;
const CREDIT_SQL = `with "credited" as (update "finance_orders" set "total_paid_minor" = total_paid_minor + $1::int8 where "partner_id" = $2 and "id" = $3 returning "total_paid_minor"), "payment" as (insert into "payments" ("amount_minor", "channel", "clerk_id", "currency", "finance_order_id", "merchant_id", "partner_id", "received_at", "vendor_id", "vendor_reference") values ($4, $5, $6, $7, $8, $9, $10, $11, $12, $13) returning "partner_id", "id", "finance_order_id", "channel", "amount_minor", "currency", "merchant_id", "clerk_id", "vendor_id", "vendor_reference", "received_at"), "ledger" as (insert into transactions (partner_id, type, amount_minor, currency, occurred_at, merchant_id, finance_order_id, payment_id, clerk_id)
       select payment.partner_id, entry.type, entry.amount_minor, payment.currency, payment.received_at, payment.merchant_id,
              payment.finance_order_id, payment.id, entry.clerk_id
       from payment, jsonb_to_recordset($14::jsonb) as entry (type text, amount_minor int8, clerk_id int8)) select "payment".*, "credited"."total_paid_minor" from "payment" cross join credited`;
const EVENTS_SQL = `insert into events (partner_id, id, sequence, type, occurred_at, data, traceparent)
     select $1, e.id, nextval('events_sequence'), e.type, e.occurred_at, e.data, $2::text
     from (select * from unnest($3::text[], $4::text[], $5::timestamptz[], $6::json[]) with ordinality
           as u(id, type, occurred_at, data, ordinal) order by ordinal) as e
     returning partner_id, id, sequence, type, occurred_at, data`;
const STORE_IDEMPOTENCY_SQL = `with "purged" as (delete from "idempotency_keys" where "partner_id" = $1 and "expires_at" <= $2 and not "idempotency_key" = $3) insert into "idempotency_keys" ("created_at", "expires_at", "idempotency_key", "partner_id", "request_hash", "response_body", "response_status") values ($4, $5, $6, $7, $8, $9, $10) on conflict ("partner_id", "idempotency_key") do update set "request_hash" = excluded."request_hash", "response_status" = excluded."response_status", "response_body" = excluded."response_body", "created_at" = excluded."created_at", "expires_at" = excluded."expires_at"`;
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
class Refusal extends Error {
  constructor(readonly answer: Answer) {
    super(String((answer.body as { message: string }).message));
  }
}

/** GET /v1/record-customer-payment.php, from its query parameters and Idempotency-Key header. */
export async function recordCustomerPayment(
  pool: Pool,
  query: Record<string, unknown>,
  idempotencyKey: string | undefined,
): Promise<Answer> {
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : '');
  const [key, merchantId, clerkId, orderId, amountText, currency] = [
    'key',
    'merchantId',
    'salesClerkId',
    'financeOrderId',
    'amount',
    'currency',
  ].map(text) as [string, string, string, string, string, string];
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

  const client = await pool.connect();
  let events: Row[] = [];
  let answer: Answer;
  try {
    await client.query('BEGIN;');
    answer = await (async (): Promise<Answer> => {
      if (idempotencyKey !== undefined) {
        await client.query(named(LOCK_SQL, [`idempotency:${partnerId}:${idempotencyKey}`]));
        const stored = (await client.query(named(IDEMPOTENCY_SQL, [partnerId, idempotencyKey, 1]))).rows[0];
        if (stored && (stored.expires_at as Date).getTime() > now.getTime()) {
          if (stored.request_hash !== requestHash) throw new Refusal(refused(409, 'Idempotency-Key reused'));
          return { status: 200, body: bodyOf(stored.response_body as Receipt) };
        }
      }
      const found = (await client.query(named(MERCHANT_AND_CLERK_SQL, [partnerId, merchantId, partnerId, clerkId, 1])))
        .rows[0]!;
      if (found.merchant === null) throw new Refusal(refused(404, `merchant ${merchantId} not found`));
      if (found.clerk === null) throw new Refusal(refused(404, `clerk ${clerkId} not found`));
      const order = (await client.query(named(ORDER_SQL, [partnerId, orderId, 1]))).rows[0];
      if (!order) throw new Refusal(refused(404, `finance order ${orderId} not found`));
      if (order.currency !== currency) throw new Refusal(refused(400, `the order is in ${order.currency}`));
      const monthly = BigInt(order.monthly_cost_minor as string);
      const balance = monthly * BigInt(order.months as number) - BigInt(order.total_paid_minor as string);
      if (minor > balance) throw new Refusal(refused(400, 'the payment is more than the remaining balance'));

      const commission = commissionOn(minor, order.commission_rate_bps as number);
      const entries = [
        { type: 'cash', amount_minor: (-minor).toString(), clerk_id: clerkId },
        ...(commission > 0n ? [{ type: 'commission', amount_minor: commission.toString(), clerk_id: null }] : []),
      ];
      const written = (
        await client.query(
          named(CREDIT_SQL, [
            minor.toString(),
            partnerId,
            orderId,
            minor.toString(),
            'in_store',
            clerkId,
            currency,
            orderId,
            merchantId,
            partnerId,
            now,
            null,
            null,
            JSON.stringify(entries),
          ]),
        )
      ).rows[0]!;
      const paymentId = Number(written.id);
      const remaining = monthly * BigInt(order.months as number) - BigInt(written.total_paid_minor as string);
      const fullyPaid = remaining <= 0n;
      const paidThroughDays = 30n + (BigInt(written.total_paid_minor as string) * 30n) / monthly;
      const nextPayment = fullyPaid
        ? null
        : seconds(new Date((order.ordered_at as Date).getTime() + Number(paidThroughDays) * DAY_MS));
      const time = seconds(now);
      const merchant = { id: Number(merchantId), name: found.merchant };
      const payment = { id: paymentId, timestamp: time, amount: amount(minor) };
      const data: Array<[string, unknown]> = [
        [
          'payment.recorded',
          {
            payment: {
              id: paymentId,
              time,
              amount: amount(minor),
              currency,
              channel: 'in_store',
              deviceTag: order.device_tag,
              financeOrderId: Number(orderId),
            },
            financeOrder: { id: Number(orderId), remainingBalance: amount(remaining), nextPayment, fullyPaid },
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
            ...(entry.clerk_id ? { salesClerk: { id: Number(clerkId), name: found.clerk } } : {}),
          },
        ]),
        ...(fullyPaid
          ? [['finance_order.paid_off', { id: Number(orderId), currency, remainingBalance: 0 }] as [string, unknown]]
          : []),
      ];
      events = (
        await client.query(
          named(EVENTS_SQL, [
            partnerId,
            null,
            data.map(() => eventId(now)),
            data.map(([type]) => type),
            data.map(() => now.toISOString()),
            data.map(([, body]) => JSON.stringify(body)),
          ]),
        )
      ).rows;
      // The receipt as the service stores it for a replay (ledger:check reads its paymentId).
      const receipt: Receipt = {
        partnerId,
        paymentId: String(paymentId),
        amountMinor: minor.toString(),
        time,
        deviceTag: order.device_tag as string,
        remainingMinor: remaining.toString(),
        currency,
        nextPayment,
        fullyPaid,
      };
      if (idempotencyKey !== undefined)
        await client.query(
          named(STORE_IDEMPOTENCY_SQL, [
            partnerId,
            now,
            idempotencyKey,
            now,
            new Date(now.getTime() + KEY_LIFETIME_MS),
            idempotencyKey,
            partnerId,
            requestHash,
            JSON.stringify(receipt),
            200,
          ]),
        );
      return { status: 200, body: bodyOf(receipt) };
    })();
    await client.query('COMMIT;');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
    if (error instanceof Refusal) return error.answer;
    throw error;
  }
  client.release();
  if (events.length > 0)
    await pool.query(named(NOTIFY_SQL, ['dfs_events', events.map((event) => `${event.partner_id}:${event.id}`)]));
  return answer;
}
