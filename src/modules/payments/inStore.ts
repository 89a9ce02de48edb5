// A payment taken in a store (record-customer-payment, recordInStorePayment) in two round trips, no
// transaction held open between them: one read of everything it is decided from, which also draws the
// payment's id when the payment will pass (queries.ts inStorePaymentFacts), the decision here by the rules every payment follows (record.ts: the
// refusals in their order, the commission, the receipt, the events), then one write whose every part
// the database's guards let through or not (queries.ts creditInStorePayment). A write that wrote
// nothing is decided again from a new read: the order's total had moved (a concurrent payment; one
// that no longer fits is now refused), or the Idempotency-Key was claimed meanwhile (now replayed, or
// refused as a conflict). An order still contended after a few rounds is paid the same way with its
// row locked first, in one transaction, so the payments on it take turns instead of retrying.
import type { Db, DbOrTrx } from '../../db/knex.js';
import { notFound } from '../../kernel/errors.js';
import { addMoney, money, normaliseDecimal, parsePaymentAmount } from '../../kernel/money.js';
import { lockFinanceOrder } from '../financeOrders/queries.js';
import { settingsOfColumns } from '../partners/settings.js';
import type { UnlockKeySealer } from '../unlockCodes/sealing.js';
import { creditInStorePaymentInSteps } from './creditInSteps.js';
import {
  type Claimed,
  fingerprintPaymentRequest,
  IDEMPOTENCY_KEY_LIFETIME_MS,
  type RequestFingerprint,
  replayOf,
} from './idempotency.js';
import {
  creditInStorePayment,
  type InStoreCredit,
  type InStorePaymentFacts,
  inStorePaymentFacts,
  isKeyClaimedMeanwhile,
} from './queries.js';
import {
  checkPayment,
  completingUntilOf,
  eventsOfPayment,
  nextUnlockCounter,
  type PaymentSource,
  paymentRowOf,
  paymentTimelineOf,
  receiptOf,
  receiptUnlockCode,
} from './record.js';
import type { PaymentReceiptSnapshot } from './rows.js';

export interface InStorePaymentRequest {
  partnerId: string;
  merchantId: string;
  clerkId: string;
  financeOrderId: string;
  /** Decimal text as the store gave it. */
  amount: string;
  currency: string;
  idempotencyKey: string | null;
  /** The partner's time the payment is received at (its sandbox clock, decisions.md 15); real time when absent. */
  receivedAt?: Date;
}

/**
 * How the write goes: one statement (the default), or in steps, a transaction of statements each pinned
 * to the partner, on a database distributed by partner (creditInSteps.ts, decisions.md 48).
 */
export interface PaymentWrite {
  inSteps: boolean;
}

/** Rounds of read and write before the order is locked: each lost round means another payment on it landed. */
export const OPTIMISTIC_ROUNDS = 3;

interface KeyClaim {
  key: string;
  fingerprint: RequestFingerprint;
}

type Decision = { replay: Claimed } | { credit: InStoreCredit; receipt: PaymentReceiptSnapshot };

/**
 * Every refusal in the order the service has always given them: a live record of the key first (its
 * receipt again, or a conflict), then the store, the clerk, the order, the currency, the amount, the
 * balance (record.ts checkPayment). A payment that passes is built in full, with the id the read drew.
 */
function decide(
  facts: InStorePaymentFacts,
  request: InStorePaymentRequest,
  claim: KeyClaim | null,
  now: Date,
  unlockKeys: UnlockKeySealer,
) {
  if (claim && facts.key && facts.key.expires_at.getTime() > now.getTime()) {
    return { replay: replayOf(facts.key, claim.fingerprint, 'this Idempotency-Key') } satisfies Decision;
  }
  if (facts.merchantName === null) throw notFound('merchant', request.merchantId);
  if (facts.clerkName === null) throw notFound('clerk', request.clerkId);
  const order = facts.order;
  if (!order) throw notFound('finance order', request.financeOrderId);
  const source: PaymentSource = {
    channel: 'in_store',
    merchantId: request.merchantId,
    clerkId: request.clerkId,
    merchantName: facts.merchantName,
    clerkName: facts.clerkName,
  };
  const { amount, transactions } = checkPayment(order, {
    order: { partnerId: request.partnerId, id: request.financeOrderId },
    amount: request.amount,
    currency: request.currency,
    source,
  });
  // The read draws the id exactly when the checks above pass (its comment): without one, they disagree.
  if (facts.paymentId === null) throw new Error(`the in-store read drew no payment id for order ${order.id}`);
  const row = { ...paymentRowOf(order, amount, source, request.receivedAt ?? now), id: facts.paymentId };
  // The order as it will stand: the write credits the payment only from the total read here.
  const totalPaid = addMoney(money(order.total_paid_minor, order.currency), amount).minor.toString();
  // The partner's settings as the read found them with the order (decisions.md 15).
  const settings = settingsOfColumns(order);
  // Its unlock code (decisions.md 21): the write takes the counter the code was made with.
  const unlockCounter = nextUnlockCounter(order);
  const figures = receiptOf(order, row, totalPaid, settings);
  const receipt: PaymentReceiptSnapshot = {
    ...figures,
    unlockCode: receiptUnlockCode(
      order,
      unlockCounter,
      { ...figures, completingUntil: completingUntilOf(row, figures.fullyPaid) },
      unlockKeys,
    ),
  };
  const events = eventsOfPayment({ ...order, total_paid_minor: totalPaid }, row, receipt, source, transactions);
  // Its lock timeline at the payment's own time (the partner's, not `now`, real time): the write closes
  // and makes the order's instants, and writes the unlock or release after its events.
  const timeline = paymentTimelineOf(order, row, totalPaid, settings);
  const credit: InStoreCredit = {
    row,
    totalPaidSeen: order.total_paid_minor,
    transactions,
    events: [...events, ...timeline.events],
    timeline: { change: timeline.change, guarded: timeline.guarded },
    unlockCounter,
    key: claim && {
      key: claim.key,
      requestHash: claim.fingerprint.hash,
      receipt,
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_LIFETIME_MS),
      expiredBy: now,
    },
  };
  return { credit, receipt } satisfies Decision;
}

/** The payment's id across rounds: drawn by the first read that finds the payment will pass, then kept. */
interface Drawn {
  paymentId: string | null;
}

/** One round: read, decide, write. Null when the write wrote nothing because the order's total had moved. */
async function payOnce(
  db: DbOrTrx,
  request: InStorePaymentRequest,
  claim: KeyClaim | null,
  now: Date,
  drawn: Drawn,
  unlockKeys: UnlockKeySealer,
  write: PaymentWrite,
): Promise<Claimed | null> {
  // The amount as the request's currency reads it: the read draws an id only for an amount that parses
  // (another currency than the order's is refused before the amount is read).
  const parsed = parsePaymentAmount(request.amount, request.currency);
  const facts = await inStorePaymentFacts(db, request.partnerId, {
    ...request,
    amountMinor: 'minor' in parsed ? parsed.minor.toString() : null,
    now,
    paymentId: drawn.paymentId,
  });
  drawn.paymentId = facts.paymentId;
  const decision: Decision = decide(facts, request, claim, now, unlockKeys);
  if ('replay' in decision) return decision.replay;
  const credited = await (write.inSteps ? creditInStorePaymentInSteps : creditInStorePayment)(db, decision.credit);
  if (!credited) return null;
  return { receipt: decision.receipt, payment: decision.credit.row, events: credited.events, replayed: false };
}

/** Records an in-store payment; `unlockKeys` opens its device's unlock key for the receipt's code (decisions.md 35). */
export async function recordInStorePayment(
  db: Db,
  request: InStorePaymentRequest,
  now: Date,
  unlockKeys: UnlockKeySealer,
  write: PaymentWrite = { inSteps: false },
): Promise<Claimed> {
  const { partnerId, merchantId, clerkId, financeOrderId, amount, currency, idempotencyKey } = request;
  // The fields named as they were hashed when the first idempotency records were stored.
  const fields = { merchant: merchantId, clerk: clerkId, order: financeOrderId, amount, currency };
  const claim =
    idempotencyKey === null
      ? null
      : {
          key: idempotencyKey,
          fingerprint: fingerprintPaymentRequest(fields, { ...fields, amount: normaliseDecimal(amount) }),
        };
  // A round that wrote nothing (the total moved, or the key was claimed: the write failed whole) reads again.
  const drawn: Drawn = { paymentId: null };
  for (let round = 0; round < OPTIMISTIC_ROUNDS; round++) {
    try {
      const claimed = await payOnce(db, request, claim, now, drawn, unlockKeys, write);
      if (claimed) return claimed;
    } catch (error) {
      if (!isKeyClaimedMeanwhile(error)) throw error;
    }
  }
  // Contended: the order's row locked first, so its total stays as the read finds it. A key claimed
  // meanwhile still fails the write (the transaction rolls back), and the next round replays it.
  for (let round = 0; round < 2; round++) {
    try {
      const claimed = await db.transaction(async (trx) => {
        await lockFinanceOrder(trx, { partnerId, id: financeOrderId });
        return payOnce(trx, request, claim, now, drawn, unlockKeys, write);
      });
      if (claimed) return claimed;
    } catch (error) {
      if (!isKeyClaimedMeanwhile(error)) throw error;
    }
  }
  throw new Error(`the in-store payment on finance order ${financeOrderId} found its total moving under its lock`);
}
