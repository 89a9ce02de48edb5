import type { ConnectionPage, EdgeParent } from '../pages.js';
import type { PartnerSettingsColumns } from '../partners/settings.js';

/** Where an order stands, named for the order (terms.ts orderStatusOf): open, paid off, or closed (decisions.md 44). */
export type FinanceOrderStatus = 'ACTIVE' | 'LOCKED' | 'PAID_OFF' | 'WRITTEN_OFF' | 'RETURNED';

/** Why an operator closed an order (decisions.md 44). */
export type FinanceOrderCloseReason = 'WRITE_OFF' | 'DEVICE_RETURNED';

/** The terms a cart proposes and a finance order fixes: int8 minor units of `currency`, as strings. */
export interface FinanceTermsColumns {
  currency: string;
  purchase_minor: string;
  down_payment_minor: string;
  price_pre_tax_minor: string;
  monthly_cost_minor: string;
  weekly_cost_minor: string;
  months: number;
}

/** A row of `finance_orders`. */
export interface FinanceOrderRow extends FinanceTermsColumns {
  partner_id: string;
  id: string;
  customer_id: string;
  device_id: string;
  merchant_id: string;
  clerk_id: string;
  cart_id: string | null;
  total_paid_minor: string;
  ordered_at: Date;
  /** Paid off: when its device is released, the payoff's reversal window closing (decisions.md 44); null otherwise. */
  release_at: Date | null;
  /** Closed by an operator (the partner's time), why and the note; all null while open. */
  closed_at: Date | null;
  closed_reason: FinanceOrderCloseReason | null;
  closed_note: string | null;
  /** The balance the close cleared (its adjustment's amount, negated); '0' while open. */
  cleared_minor: string;
}

/**
 * A finance order's amounts as the graph answers them, formatted once as its row is read
 * (terms.ts withAmounts; decisions.md 47), or the error formatting one raised.
 */
export interface FinanceOrderAmounts {
  purchase_amount: string | Error;
  down_payment_amount: string | Error;
  finance_amount: string | Error;
  price_pre_tax_amount: string | Error;
  monthly_cost_amount: string | Error;
  weekly_cost_amount: string | Error;
}

/** What the graph's FinanceOrder is answered from: the order's row with its amounts (codegen.ts's mapper). */
export type FinanceOrderParent = FinanceOrderRow & FinanceOrderAmounts;

/**
 * An order as a payment reads it (locked): with its partner's commission rate, its lock policy and
 * the repayment settings the payment is held to (decisions.md 15 and 16), and its device's tag and IMEI.
 */
export interface FinanceOrderForPayment extends FinanceOrderRow, PartnerSettingsColumns, DeviceUnlockColumns {
  commission_rate_bps: number;
  device_tag: string;
  device_imei: string;
}

/**
 * The device's live credential as a payment reads it with its order, for the receipt's unlock code
 * (decisions.md 21): its hash (which row the write counts on), its unlock key sealed (decisions.md 35;
 * or in clear, for a row written before sealing and not sealed yet: one of the two) and the greatest
 * counter a code took under it. All null when the device has no live credential.
 */
export interface DeviceUnlockColumns {
  credential_key_hash: string | null;
  unlock_key: string | null;
  unlock_key_sealed: string | null;
  unlock_code_counter: number | null;
}

export interface PaymentOptionParent {
  type: 'FULL' | 'MONTH' | 'WEEK';
  amountMinor: bigint;
  currency: string;
}

export interface InstallmentParent {
  number: number;
  dueAt: Date;
  amountMinor: bigint;
  paidMinor: bigint;
  status: 'PAID' | 'OVERDUE' | 'UPCOMING';
  currency: string;
}

/**
 * What a dashboard's listing of orders (Query.financeOrders), or of customers through their orders
 * (Query.customers), is narrowed to. Every filter given must hold.
 */
export interface OrderFilters {
  /** Orders that stand so at `now` (terms.ts orderStatusOf). */
  status: FinanceOrderStatus | null;
  /** Orders sold at this store. */
  merchantId: string | null;
  /** The moment the status is taken at, with the partners' graces (decisions.md 15). */
  moment: StatusMoment;
}

/**
 * When a listing's status is taken: one partner's time and grace, or, for every partner's orders, real
 * time moved by each sandbox clock's offset, each order's grace read from its partner's row.
 */
export type StatusMoment =
  | { partnerId: string; now: Date; graceHours: number }
  | { partnerId: null; realNow: Date; offsets: ReadonlyMap<string, number> };

/** A listing of one partner's rows, or every partner's (partnerId null: operators), made in [createdAfter, createdBefore). */
export interface ListingWindow {
  partnerId: string | null;
  createdAfter: Date | null;
  createdBefore: Date | null;
}

/** A page of finance orders as the graph answers it. */
export type FinanceOrderConnectionParent = ConnectionPage<FinanceOrderParent>;

/** The name a FinanceOrderConnection's cursors carry (pages.ts idCursorOf), whichever field answers it. */
export const FINANCE_ORDER_CURSOR = 'financeOrders';

/** An edge of a FinanceOrderConnection. */
export type FinanceOrderEdgeParent = EdgeParent<FinanceOrderParent>;
