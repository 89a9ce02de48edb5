// A payment as the legacy contract writes it: record-customer-payment's `payment`
// (docs/legacy-contract.md#record-customer-payment) and the vendor notification's `data` (#notification),
// from the receipt the domain computed (its amounts in minor units of its currency).
import { integer, number } from './json.js';

/** What a payment did, as the domain's receipt says it (amounts in minor units of `currency`). */
export interface LegacyReceiptSource {
  paymentId: string;
  amountMinor: string;
  /** Unix seconds. */
  time: number;
  deviceTag: string;
  remainingMinor: string;
  currency: string;
  /** Unix seconds; null once fully paid. */
  nextPayment: number | null;
  fullyPaid: boolean;
}

/** The graph's PaymentReceipt as the operations read it (decimals as text). */
interface LegacyReceiptNode {
  payment: { id: string };
  time: number;
  deviceTag: string;
  remainingBalance: string;
  currency: string;
  nextPayment: number | null;
  fullyPaid: boolean;
}

// docs/legacy-contract.md#record-customer-payment; nextPayment is null once the order is paid off (decisions.md 5).
export function legacyPaymentReceipt(receipt: LegacyReceiptNode) {
  return {
    id: integer(receipt.payment.id),
    time: receipt.time,
    deviceTag: receipt.deviceTag,
    remainingBalance: number(receipt.remainingBalance),
    currency: receipt.currency,
    nextPayment: receipt.nextPayment,
    fullyPaid: receipt.fullyPaid,
  };
}

/** The graph's PaymentReversal as the reversal door's operation reads it (decimals as text). */
interface LegacyReversalNode {
  id: string;
  amount: string;
  currency: string;
  remainingBalance: string;
  fullyPaid: boolean;
  payment: { id: string; financeOrder: { device: { tag: string } } };
}

// docs/integrating.md#the-reversal-door-a-vendor-takes-a-payment-back: the notification's `data`, told of the reversal (decisions.md 44).
export function legacyPaymentReversal(reversal: LegacyReversalNode) {
  const { payment } = reversal;
  return {
    message: `payment ${payment.id} of ${reversal.amount} ${reversal.currency} reversed for device ${payment.financeOrder.device.tag}`,
    paymentId: integer(payment.id),
    reversalId: integer(reversal.id),
    remainingBalance: number(reversal.remainingBalance),
    currency: reversal.currency,
    fullyPaid: reversal.fullyPaid,
  };
}

// docs/legacy-contract.md#notification: data.message, and the further fields this service's integrations add.
// unlockCode only when there is one (decisions.md 21): an answer for a device without a credential stays as it was.
export function legacyPaymentNotification(
  message: string,
  receipt: Pick<LegacyReceiptNode, 'payment' | 'remainingBalance' | 'currency' | 'fullyPaid'> & {
    unlockCode?: string | null;
  },
) {
  return {
    message,
    paymentId: integer(receipt.payment.id),
    remainingBalance: number(receipt.remainingBalance),
    currency: receipt.currency,
    fullyPaid: receipt.fullyPaid,
    ...(receipt.unlockCode ? { unlockCode: receipt.unlockCode } : {}),
  };
}
