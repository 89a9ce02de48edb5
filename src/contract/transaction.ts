// A transaction as the legacy contract writes it (docs/legacy-contract.md#list-transactions): one mapper for
// list-transactions (the REST door maps the graph's node) and the transaction.created event (built
// from the rows the change wrote), so both are the same JSON byte for byte.
import { formatAmount } from '../kernel/money.js';
import { integer, type Named, named, number, seconds } from './json.js';

/** The graph's TransactionType names (the source's `type`). */
type GraphTransactionType = 'FINANCE' | 'CASH' | 'COMMISSION' | 'ADJUSTMENT';
/** A transaction's type as its row names it. */
type RowTransactionType = 'finance' | 'cash' | 'commission' | 'adjustment';

/** The legacy words for a transaction's type, frozen: they are the rows' own values. */
const LEGACY_TRANSACTION_TYPES = {
  FINANCE: 'finance',
  CASH: 'cash',
  COMMISSION: 'commission',
  ADJUSTMENT: 'adjustment',
} as const satisfies Record<GraphTransactionType, RowTransactionType>;

const GRAPH_TYPE_OF_ROW: Readonly<Record<RowTransactionType, GraphTransactionType>> = {
  finance: 'FINANCE',
  cash: 'CASH',
  commission: 'COMMISSION',
  adjustment: 'ADJUSTMENT',
};

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

/** A finance order's figures as a finance transaction shows them (decimals as text, computed by the domain). */
export interface LegacyOrderFigures {
  id: string;
  purchaseAmount: string;
  financeAmount: string;
  downPayment: string;
  pricePreTax: string;
  monthlyCost: string;
  weeklyCost: string;
  months: number;
}

/** What the mapper reads: the shape of the ListTransactions operation's node (decimals as text). */
type LegacyTransactionSource = Common &
  (
    | {
        __typename: 'FinanceTransaction';
        financeOrder: LegacyOrderFigures;
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

const payment = (row: PaymentSource) => ({ id: integer(row.id), timestamp: row.time, amount: number(row.amount) });

// docs/legacy-contract.md#list-transactions: the common fields (type, time, amount, currency, merchant), then
// each type's own.
// Each object is one literal in the contract's key order: a list maps thousands per page, and
// spreading the common fields into each cost three times as much.
export function legacyTransaction(node: LegacyTransactionSource) {
  const type = LEGACY_TRANSACTION_TYPES[node.type];
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

/**
 * A transaction as the domain holds it (a row's columns) with what it links to: a finance transaction
 * needs its merchant, clerk, order (its figures) and device; cash its merchant, clerk and payment;
 * commission its merchant and payment; an adjustment its merchant and adjustment.
 */
interface LegacyTransactionRecord {
  type: RowTransactionType;
  amount_minor: string;
  currency: string;
  occurred_at: Date;
  finance_order_id: string | null;
  links: {
    merchant: Named;
    clerk?: Named | null;
    order?: LegacyOrderFigures | null;
    device?: {
      phone_number: string | null;
      sim_number: string | null;
      imei: string;
      family_id: string;
      family_name: string;
      model_id: string;
      model_make_model: string;
      model_name: string;
    } | null;
    payment?: { id: string; received_at: Date; amount_minor: string; currency: string } | null;
    adjustment?: { id: string; kind: string; notes: string } | null;
  };
}

/** A transaction record as the mapper's source (the same shape the graph's node has). */
export function legacyTransactionSourceOf(record: LegacyTransactionRecord): LegacyTransactionSource {
  const links = record.links;
  const merchant = links.merchant;
  const common = {
    type: GRAPH_TYPE_OF_ROW[record.type],
    time: seconds(record.occurred_at),
    amount: formatAmount(record.amount_minor, record.currency),
    currency: record.currency,
    merchant: { id: merchant.id, name: merchant.name },
  };
  const clerk = () => ({ id: links.clerk!.id, name: links.clerk!.name });
  const payment = () => ({
    id: links.payment!.id,
    time: seconds(links.payment!.received_at),
    amount: formatAmount(links.payment!.amount_minor, links.payment!.currency),
  });
  switch (record.type) {
    case 'finance': {
      const order = links.order!;
      const device = links.device!;
      return {
        ...common,
        __typename: 'FinanceTransaction',
        financeOrder: {
          id: order.id,
          purchaseAmount: order.purchaseAmount,
          financeAmount: order.financeAmount,
          downPayment: order.downPayment,
          pricePreTax: order.pricePreTax,
          monthlyCost: order.monthlyCost,
          weeklyCost: order.weeklyCost,
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
        financeOrder: { id: record.finance_order_id! },
        salesClerk: clerk(),
      };
    case 'commission':
      return {
        ...common,
        __typename: 'CommissionTransaction',
        payment: payment(),
        financeOrder: { id: record.finance_order_id! },
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
