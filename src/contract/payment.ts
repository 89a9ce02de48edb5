// A payment as the legacy contract writes it: record-customer-payment's `payment`
// (docs/legacy-contract.md#record-customer-payment), the vendor notification's `data` (#notification), and
// the payment.recorded event, all from the receipt the domain computed (its amounts in minor units of its currency).
import { formatAmount } from '../kernel/money.js';
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

/** payment.recorded's data: the payment and its order as they stood right after it, typed as the legacy receipt. */
export function legacyPaymentRecorded(
  payment: { id: string; amountMinor: string; currency: string; channel: string; financeOrderId: string },
  receipt: Omit<LegacyReceiptSource, 'paymentId' | 'amountMinor'>,
) {
  const amount = (minor: string) => number(formatAmount(minor, receipt.currency));
  return {
    payment: {
      id: integer(payment.id),
      time: receipt.time,
      amount: amount(payment.amountMinor),
      currency: payment.currency,
      channel: payment.channel,
      deviceTag: receipt.deviceTag,
      financeOrderId: integer(payment.financeOrderId),
    },
    financeOrder: {
      id: integer(payment.financeOrderId),
      remainingBalance: amount(receipt.remainingMinor),
      nextPayment: receipt.nextPayment,
      fullyPaid: receipt.fullyPaid,
    },
  };
}
