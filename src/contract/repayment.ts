// What a payment vendor reads before taking cash: GET /payments/v1/repayment-options's `data`
// (docs/integrating.md, decisions.md 16). Not of the frozen legacy contract, but written in its manner
// for the vendors who use it beside the notification: ids as integers, times as Unix seconds; amounts
// as decimal strings, exactly as the order's currency writes them, since a vendor must be able to take
// exactly an option's amount.
import { integer } from './json.js';

/** The graph's DeviceRepayment as the RepaymentOptions operation reads it (decimals as text, times as Unix seconds). */
interface RepaymentOptionsSource {
  deviceTag: string;
  financeOrderId: string;
  currency: string;
  lockAt: number;
  repayment: {
    minimumPaymentAmount: string;
    fullPayoffAmount: string;
    flexibleAmountEnabled: boolean;
    options: ReadonlyArray<{ daysPaid: number; amount: string }>;
  };
}

export function repaymentOptionsData(source: RepaymentOptionsSource) {
  const { repayment } = source;
  return {
    deviceTag: source.deviceTag,
    financeOrderId: integer(source.financeOrderId),
    currency: source.currency,
    minimumPaymentAmount: repayment.minimumPaymentAmount,
    fullPayoffAmount: repayment.fullPayoffAmount,
    flexibleAmountEnabled: repayment.flexibleAmountEnabled,
    lockAt: source.lockAt,
    options: repayment.options.map((option) => ({ daysPaid: option.daysPaid, amount: option.amount })),
  };
}
