// Recording a payment against a finance order: the rules every payment meets and what it writes
// (its row, its partner transactions, its receipt and events), shared by both doors; and a vendor's
// payment, inside the caller's database transaction with the order locked, where every refusal happens
// before anything is written and the payment, its transactions and the balance change commit together.
// An in-store payment writes the same in one statement (inStore.ts).
import type { DbOrTrx } from '../../db/knex.js';
import {
  amountExceedsBalance,
  amountNotAnOption,
  currencyMismatch,
  invalidPaymentAmount,
  notFound,
} from '../../kernel/errors.js';
import {
  commissionOnMoney,
  formatMoney,
  isMoreThan,
  type Money,
  money,
  parsePaymentAmount,
} from '../../kernel/money.js';

import type { EventRow, NewEvent } from '../events/rows.js';
import { lockFinanceOrder } from '../financeOrders/queries.js';
import { acceptedAmountsOf, isAmountAnOption } from '../financeOrders/repayment.js';
import type { DeviceUnlockColumns, FinanceOrderForPayment, FinanceOrderRow } from '../financeOrders/rows.js';
import { assertOpen, lockAtOf, remainingBalanceOf, standingOf } from '../financeOrders/terms.js';
import { DEFAULT_PARTNER_SETTINGS, type PartnerSettings, settingsOfColumns } from '../partners/settings.js';
import type { TenantKey } from '../tenancy.js';
import { appendEventsWithTimeline, type TimelineChange, timelineEventsOf } from '../timeline/schedule.js';
import { releaseCodeOf, unlockCodeOf } from '../unlockCodes/codes.js';
import { type UnlockKeySealer, unlockKeyOfRow } from '../unlockCodes/sealing.js';
import { paymentEvents } from './events.js';
import { creditPayment, type PaymentTransaction, type UnlockCounterTaken } from './queries.js';
import type { PaymentReceiptSnapshot, PaymentRow } from './rows.js';

export type PaymentSource =
  | { channel: 'in_store'; merchantId: string; clerkId: string; merchantName: string; clerkName: string }
  | { channel: 'vendor'; vendorId: string; vendorReference: string };

interface PaymentRequest {
  order: TenantKey;
  /** Decimal text as the payer gave it. */
  amount: string;
  currency: string;
  source: PaymentSource;
}

const toUnixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** A payment just recorded: its row, and the receipt that answers the request (and any replay of it). */
export interface RecordedPayment {
  payment: PaymentRow;
  receipt: PaymentReceiptSnapshot;
  /** The events written with it. */
  events: EventRow[];
}

/** The receipt of a payment as its order stood right after it (`totalPaidMinor` counts it). */
export function receiptOf(
  order: FinanceOrderRow & { device_tag: string },
  payment: PaymentRow,
  totalPaidMinor: string,
  settings: Pick<PartnerSettings, 'lockGraceHours'> = DEFAULT_PARTNER_SETTINGS,
): PaymentReceiptSnapshot {
  const now = payment.received_at;
  // nextPayment is lockAt: paid-through + the partner's grace (decisions.md 15).
  const after = standingOf({ ...order, total_paid_minor: totalPaidMinor }, now, settings);
  return {
    partnerId: order.partner_id,
    paymentId: payment.id,
    amountMinor: payment.amount_minor,
    time: toUnixSeconds(now),
    deviceTag: order.device_tag,
    remainingMinor: after.remainingMinor.toString(),
    currency: order.currency,
    nextPayment: after.nextPayment ? toUnixSeconds(after.nextPayment) : null,
    fullyPaid: after.fullyPaid,
  };
}

/**
 * The unlock code counter an in-store payment's code takes (decisions.md 21): the next one under the
 * device's live credential, as the payment's read found it; null when the device has no live credential.
 */
export function nextUnlockCounter(order: DeviceUnlockColumns): UnlockCounterTaken | null {
  // A live credential always holds its unlock key, sealed or (not sealed yet) in clear: the schema's check.
  if (order.credential_key_hash === null) return null;
  return { credentialKeyHash: order.credential_key_hash, counter: (order.unlock_code_counter ?? 0) + 1 };
}

/**
 * A payoff's release (decisions.md 44): its reversibleUntil, the moment its window closes; completing
 * while that is after the payment's time. Null for a payment that does not pay the order off.
 */
export function completingUntilOf(
  payment: Pick<PaymentRow, 'received_at' | 'reversible_until'>,
  fullyPaid: boolean,
): Date | null {
  return fullyPaid && payment.reversible_until.getTime() > payment.received_at.getTime()
    ? payment.reversible_until
    : null;
}

/**
 * The receipt's unlock code: until the order's new lockAt, or, once it is paid off, until its
 * `completingUntil` (a payoff still reversible: decisions.md 44), else for good (a release code); null
 * without a counter. The device's unlock key is opened here, in memory, from what the payment's read
 * brought (decisions.md 35): no statement more.
 */
export function receiptUnlockCode(
  order: DeviceUnlockColumns & Pick<FinanceOrderRow, 'partner_id' | 'device_id'> & { device_tag: string },
  taken: UnlockCounterTaken | null,
  receipt: Pick<PaymentReceiptSnapshot, 'nextPayment' | 'fullyPaid'> & { completingUntil: Date | null },
  unlockKeys: UnlockKeySealer,
): string | null {
  if (taken === null) return null;
  const unlockKey = unlockKeyOfRow(unlockKeys, order, {
    partnerId: order.partner_id,
    deviceId: order.device_id,
    credentialKeyHash: taken.credentialKeyHash,
  });
  if (unlockKey === null) return null;
  if (receipt.completingUntil !== null)
    return unlockCodeOf(unlockKey, order.device_tag, toUnixSeconds(receipt.completingUntil), taken.counter);
  if (receipt.fullyPaid || receipt.nextPayment === null)
    return releaseCodeOf(unlockKey, order.device_tag, taken.counter);
  return unlockCodeOf(unlockKey, order.device_tag, receipt.nextPayment, taken.counter);
}

/** A payment that passed every refusal: its amount, and the partner transactions it makes. */
interface CheckedPayment {
  amount: Money;
  transactions: PaymentTransaction[];
}

/**
 * With flexible amounts off, only an option's amount or the full payoff (decisions.md 16): the options
 * as the order stands when the payment is decided, from the partner's settings the payment's read
 * brought with the order. Every payment door meets it, in checkPayment.
 */
function assertAmountIsAnOption(order: FinanceOrderForPayment, amount: Money): void {
  const settings = settingsOfColumns(order);
  if (isAmountAnOption(order, amount.minor, settings)) return;
  const accepted = acceptedAmountsOf(order, settings.repaymentDays).map((minor) =>
    formatMoney(money(minor, order.currency)),
  );
  throw amountNotAnOption(formatMoney(amount), order.currency, accepted);
}

/**
 * The refusals a payment meets once its order is found, in this order: the order closed, another currency than the
 * order's, an amount the currency cannot take, more than the balance, not an amount the partner takes
 * (flexible amounts off). Then what it writes besides itself: money taken in a store is the partner's
 * cash and earns its commission; a vendor's is neither.
 */
export function checkPayment(order: FinanceOrderForPayment, request: PaymentRequest): CheckedPayment {
  assertOpen(order);
  if (request.currency !== order.currency) throw currencyMismatch(request.currency, order.currency);
  const parsed = parsePaymentAmount(request.amount, order.currency);
  if ('problem' in parsed) throw invalidPaymentAmount(parsed.problem);
  const amount = money(parsed.minor, request.currency);
  const balance = remainingBalanceOf(order);
  if (isMoreThan(amount, balance)) {
    throw amountExceedsBalance(formatMoney(amount), formatMoney(balance), order.currency);
  }
  assertAmountIsAnOption(order, amount);
  const transactions: PaymentTransaction[] = [];
  if (request.source.channel === 'in_store') {
    const commission = commissionOnMoney(amount, order.commission_rate_bps);
    transactions.push({ type: 'cash', amount_minor: (-amount.minor).toString(), clerk_id: request.source.clerkId });
    if (commission.minor > 0n) {
      transactions.push({ type: 'commission', amount_minor: commission.minor.toString(), clerk_id: null });
    }
  }
  return { amount, transactions };
}

/** A payment's window is fixed when it is received: its time + the partner's window then (decisions.md 44). */
export const reversibleUntilOf = (receivedAt: Date, settings: Pick<PartnerSettings, 'reversalWindowHours'>): Date =>
  new Date(receivedAt.getTime() + settings.reversalWindowHours * 3_600_000);

/** The payment's row as it will be written (the database gives its id). */
export function paymentRowOf(
  order: FinanceOrderForPayment,
  amount: Money,
  source: PaymentSource,
  now: Date,
): Omit<PaymentRow, 'id'> {
  return {
    partner_id: order.partner_id,
    finance_order_id: order.id,
    channel: source.channel,
    amount_minor: amount.minor.toString(),
    currency: amount.currency,
    merchant_id: source.channel === 'in_store' ? source.merchantId : null,
    clerk_id: source.channel === 'in_store' ? source.clerkId : null,
    vendor_id: source.channel === 'vendor' ? source.vendorId : null,
    vendor_reference: source.channel === 'vendor' ? source.vendorReference : null,
    received_at: now,
    reversible_until: reversibleUntilOf(now, settingsOfColumns(order)),
  };
}

/** Its events, made from what is in hand (no read): `order` stands as right after the payment. */
export function eventsOfPayment(
  order: FinanceOrderRow,
  payment: PaymentRow,
  receipt: PaymentReceiptSnapshot,
  source: PaymentSource,
  transactions: readonly PaymentTransaction[],
): NewEvent[] {
  return paymentEvents(order, payment, receipt, {
    transactions:
      source.channel === 'in_store'
        ? transactions.map((transaction) => ({
            ...transaction,
            merchant: { id: source.merchantId, name: source.merchantName },
            clerk: transaction.clerk_id ? { id: source.clerkId, name: source.clerkName } : null,
          }))
        : [],
  });
}

/** A payment's events on its order's lock timeline: the change of its deadline, and its unlock or release. */
interface PaymentTimeline {
  change: TimelineChange;
  /** device.unlocked or device.released, after the payment's own events; the unlock guarded (only if it was locked). */
  events: NewEvent[];
  guarded: Set<NewEvent>;
}

/**
 * How a payment moves its order's lockAt (the order as it stood before it, and its total after), at
 * the partner's time the payment is received at, which its row holds: both doors make the same
 * instants from it (decisions.md 37), never from real time. A payoff inside its reversal window makes
 * the release instant instead of releasing (decisions.md 44).
 */
export function paymentTimelineOf(
  order: FinanceOrderForPayment,
  payment: Pick<PaymentRow, 'received_at' | 'reversible_until'>,
  totalPaidMinor: string,
  settings: PartnerSettings,
): PaymentTimeline {
  const now = payment.received_at;
  const paidAfter = { ...order, total_paid_minor: totalPaidMinor };
  const before = standingOf(order, now);
  const after = standingOf(paidAfter, now);
  const change: TimelineChange = {
    partnerId: order.partner_id,
    financeOrderId: order.id,
    before: { lockAt: before.fullyPaid ? null : lockAtOf(before.paidThrough, settings) },
    after: {
      lockAt: after.fullyPaid ? null : lockAtOf(after.paidThrough, settings),
      fullyPaid: after.fullyPaid,
      releaseAt: completingUntilOf(payment, after.fullyPaid),
    },
    now,
    settings,
  };
  return { change, ...timelineEventsOf(change, paidAfter) };
}

/**
 * Records a payment inside the caller's transaction (a vendor's notification), the order locked;
 * `unlockKeys` opens its device's unlock key for the receipt's code.
 */
export async function recordPayment(
  trx: DbOrTrx,
  request: PaymentRequest,
  now: Date,
  unlockKeys: UnlockKeySealer,
): Promise<RecordedPayment> {
  // One round trip: the order locked, with its partner's commission rate and its device's tag.
  const order = await lockFinanceOrder(trx, request.order);
  if (!order) throw notFound('finance order', request.order.id);
  const { amount, transactions } = checkPayment(order, request);
  // Nothing is written before this one statement: the running total, the payment, its transactions, the
  // code's counter (as the write finds it: the order's lock does not cover the credential's row).
  const { payment, totalPaidMinor, unlockCodeCounter } = await creditPayment(
    trx,
    paymentRowOf(order, amount, request.source, now),
    transactions,
    order.credential_key_hash,
  );
  const unlockCounter =
    order.credential_key_hash === null || unlockCodeCounter === null
      ? null
      : { credentialKeyHash: order.credential_key_hash, counter: unlockCodeCounter };
  const figures = receiptOf(order, payment, totalPaidMinor, settingsOfColumns(order));
  const completingUntil = completingUntilOf(payment, figures.fullyPaid);
  const receipt = {
    ...figures,
    unlockCode: receiptUnlockCode(order, unlockCounter, { ...figures, completingUntil }, unlockKeys),
  };
  // Its events, then its unlock or release, in its transaction and one statement with its lock timeline.
  const events = eventsOfPayment(
    { ...order, total_paid_minor: totalPaidMinor },
    payment,
    receipt,
    request.source,
    transactions,
  );
  const timeline = paymentTimelineOf(order, payment, totalPaidMinor, settingsOfColumns(order));
  const written = await appendEventsWithTimeline(
    trx,
    timeline.change,
    [...events, ...timeline.events],
    timeline.guarded,
  );
  return { payment, receipt, events: written };
}
