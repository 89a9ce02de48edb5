// A transaction as the legacy contract writes it (interface.md 2.7): one mapper for list-transactions
// (the REST shim maps the graph's node) and the transaction.created event (built from the rows the
// change wrote), so both are the same JSON byte for byte.
import { decimalToJsonNumber, formatAmount } from '../../money.js';
import type { ClerkRow } from '../clerks/rows.js';
import type { DeviceRow } from '../devices/rows.js';
import type { FinanceOrderRow } from '../financeOrders/rows.js';
import { financeTermsFields } from '../financeOrders/terms.js';
import type { MerchantRow } from '../merchants/rows.js';
import type { PaymentRow } from '../payments/rows.js';
import {
  type AdjustmentRow,
  GRAPH_TRANSACTION_TYPES,
  type GraphTransactionType,
  ROW_TRANSACTION_TYPES,
  type TransactionRow,
} from './rows.js';

/** An id the contract types as integer. Ids come from int8 sequences far below 2^53. */
const integer = (id: string): number => Number(id);
/** An amount the contract types as number, from the exact decimal string. */
const number = (decimal: string): number => decimalToJsonNumber(decimal);
const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

interface Named {
  id: string;
  name: string;
}
interface Common {
  type: GraphTransactionType;
  /** Unix seconds. */
  time: number;
  /** Decimal text with the currency's places. */
  amount: string;
  currency: string;
  merchant: Named;
}
interface PaymentSource {
  id: string;
  time: number;
  amount: string;
}

/** What the mapper reads: the shape of the ListTransactions operation's node (decimals as text). */
export type LegacyTransactionSource = Common &
  (
    | {
        __typename: 'FinanceTransaction';
        financeOrder: {
          id: string;
          purchaseAmount: string;
          financeAmount: string;
          downPayment: string;
          pricePreTax: string;
          monthlyCost: string;
          weeklyCost: string;
          months: number;
        };
        salesClerk: Named;
        device: {
          phoneNumber?: string | null;
          simNumber?: string | null;
          imei: string;
          family: Named;
          model: Named & { makeModel: string };
        };
      }
    | { __typename: 'CashTransaction'; payment: PaymentSource; financeOrder: { id: string }; salesClerk: Named }
    | { __typename: 'CommissionTransaction'; payment: PaymentSource; financeOrder: { id: string } }
    | { __typename: 'AdjustmentTransaction'; adjustment: { id: string; kind: string; notes: string } }
  );

const named = (row: Named) => ({ id: integer(row.id), name: row.name });
const payment = (row: PaymentSource) => ({ id: integer(row.id), timestamp: row.time, amount: number(row.amount) });

// interface.md 2.7: the common fields (type, time, amount, currency, merchant), then each type's own.
// Each object is one literal in the contract's key order: a list maps thousands per page, and
// spreading the common fields into each cost three times as much.
export function legacyTransaction(node: LegacyTransactionSource) {
  const type = ROW_TRANSACTION_TYPES[node.type];
  switch (node.__typename) {
    case 'FinanceTransaction': {
      const order = node.financeOrder;
      const device = node.device;
      return {
        type,
        time: node.time,
        amount: number(node.amount),
        currency: node.currency,
        merchant: named(node.merchant),
        financeOrder: {
          id: integer(order.id),
          purchaseAmount: number(order.purchaseAmount),
          financeAmount: number(order.financeAmount),
          downPayment: number(order.downPayment),
          pricePreTax: number(order.pricePreTax),
          monthlyCost: number(order.monthlyCost),
          weeklyCost: number(order.weeklyCost),
          months: order.months,
        },
        salesClerk: named(node.salesClerk),
        device: {
          phoneNumber: device.phoneNumber,
          simNumber: device.simNumber,
          imei: device.imei,
          family: named(device.family),
          model: { id: integer(device.model.id), makeModel: device.model.makeModel, name: device.model.name },
        },
      };
    }
    case 'CashTransaction':
      return {
        type,
        time: node.time,
        amount: number(node.amount),
        currency: node.currency,
        merchant: named(node.merchant),
        payment: payment(node.payment),
        financeOrder: { id: integer(node.financeOrder.id) },
        salesClerk: named(node.salesClerk),
      };
    case 'CommissionTransaction':
      return {
        type,
        time: node.time,
        amount: number(node.amount),
        currency: node.currency,
        merchant: named(node.merchant),
        payment: payment(node.payment),
        financeOrder: { id: integer(node.financeOrder.id) },
      };
    case 'AdjustmentTransaction':
      return {
        type,
        time: node.time,
        amount: number(node.amount),
        currency: node.currency,
        merchant: named(node.merchant),
        adjustment: {
          id: integer(node.adjustment.id),
          type: node.adjustment.kind.toLowerCase(),
          notes: node.adjustment.notes,
        },
      };
  }
}

/** What of each linked row the legacy object shows (a listing's TransactionLinks hold whole rows). */
export interface LegacyTransactionLinks {
  merchant?: Pick<MerchantRow, 'id' | 'name'> | null;
  clerk?: Pick<ClerkRow, 'id' | 'name'> | null;
  order?: FinanceOrderRow | null;
  device?: DeviceRow | null;
  payment?: Pick<PaymentRow, 'id' | 'received_at' | 'amount_minor' | 'currency'> | null;
  adjustment?: Pick<AdjustmentRow, 'id' | 'kind' | 'notes'> | null;
}

/**
 * A transaction row with the rows it links to as the mapper's source: a finance transaction needs its
 * merchant, clerk, order and device; cash its merchant, clerk and payment; commission its merchant
 * and payment; an adjustment its merchant and adjustment.
 */
export function legacyTransactionSourceOf(
  row: Omit<TransactionRow, 'links'> & { links?: LegacyTransactionLinks },
): LegacyTransactionSource {
  const links = row.links ?? {};
  const money = (minor: bigint | string) => formatAmount(minor, row.currency);
  const merchant = links.merchant!;
  const common = {
    type: GRAPH_TRANSACTION_TYPES[row.type],
    time: seconds(row.occurred_at),
    amount: money(row.amount_minor),
    currency: row.currency,
    merchant: { id: merchant.id, name: merchant.name },
  };
  const clerk = () => ({ id: links.clerk!.id, name: links.clerk!.name });
  const payment = () => ({
    id: links.payment!.id,
    time: seconds(links.payment!.received_at),
    amount: formatAmount(links.payment!.amount_minor, links.payment!.currency),
  });
  switch (row.type) {
    case 'finance': {
      const order = links.order!;
      const device = links.device!;
      const terms = financeTermsFields;
      return {
        ...common,
        __typename: 'FinanceTransaction',
        financeOrder: {
          id: order.id,
          purchaseAmount: terms.purchaseAmount(order),
          financeAmount: terms.financeAmount(order),
          downPayment: terms.downPayment(order),
          pricePreTax: terms.pricePreTax(order),
          monthlyCost: terms.monthlyCost(order),
          weeklyCost: terms.weeklyCost(order),
          months: order.months,
        },
        salesClerk: clerk(),
        device: {
          phoneNumber: device.phone_number,
          simNumber: device.sim_number,
          imei: device.imei,
          family: { id: device.family_id, name: device.family_name },
          model: { id: device.model_id, makeModel: device.model_make_model, name: device.model_name },
        },
      };
    }
    case 'cash':
      return {
        ...common,
        __typename: 'CashTransaction',
        payment: payment(),
        financeOrder: { id: row.finance_order_id! },
        salesClerk: clerk(),
      };
    case 'commission':
      return {
        ...common,
        __typename: 'CommissionTransaction',
        payment: payment(),
        financeOrder: { id: row.finance_order_id! },
      };
    case 'adjustment':
      return {
        ...common,
        __typename: 'AdjustmentTransaction',
        adjustment: {
          id: links.adjustment!.id,
          kind: links.adjustment!.kind.toUpperCase(),
          notes: links.adjustment!.notes,
        },
      };
  }
}
