import type { ClerkRow } from '../clerks/rows.js';
import type { DeviceParent, DeviceRow } from '../devices/rows.js';
import type { FinanceOrderParent, FinanceOrderRow } from '../financeOrders/rows.js';
import type { MerchantRow } from '../merchants/rows.js';
import type { PaymentRow } from '../payments/rows.js';

export type TransactionType = 'finance' | 'cash' | 'commission' | 'adjustment';

/**
 * The one rule between a row's type and the graph's TransactionType: FINANCE is 'finance'. The graph's
 * enum takes the rows' values as its internal ones (resolvers.ts, which checks these names against the
 * generated enum); the legacy contract writes the row's.
 */
export const ROW_TRANSACTION_TYPES = {
  FINANCE: 'finance',
  CASH: 'cash',
  COMMISSION: 'commission',
  ADJUSTMENT: 'adjustment',
} as const satisfies Record<string, TransactionType>;

/** A row of `transactions`: signed amount from the partner's side, int8 minor units as a string. */
export interface TransactionRow {
  partner_id: string;
  id: string;
  type: TransactionType;
  amount_minor: string;
  currency: string;
  occurred_at: Date;
  merchant_id: string;
  finance_order_id: string | null;
  payment_id: string | null;
  clerk_id: string | null;
  adjustment_id: string | null;
  /** Rows it points at, when a listing read them along (not a column). */
  links?: TransactionLinks;
}

/** A row a transaction points at (its device through its finance order). */
export type TransactionLink = 'merchant' | 'clerk' | 'order' | 'device' | 'payment' | 'adjustment';

/** The rows a transaction points at, whole; null where it has no such link. */
export interface TransactionLinkRows {
  merchant: MerchantRow | null;
  clerk: ClerkRow | null;
  order: FinanceOrderRow | null;
  device: DeviceRow | null;
  payment: PaymentRow | null;
  adjustment: AdjustmentRow | null;
}

/**
 * A linked row as a listing reads it along: its id and only the columns the request's fields read
 * (linkColumns.ts), so never a whole row: it is answered to those fields and never primes a loader.
 */
export type JoinedLink<Row extends { id: string }> = Partial<Row> & Pick<Row, 'id'>;

/**
 * The rows a listed transaction points at, read in the listing's own statement when the request
 * selects them (selection.ts: every link it selects); null where the transaction has no such link.
 */
type TransactionLinks = {
  [Link in TransactionLink]?: JoinedLink<NonNullable<ListedLinkRows[Link]>> | null;
};

/**
 * As a listing reads the links: its order with the amounts, and its device with the model and family,
 * that the request's fields read (queries.ts listedRowReader).
 */
type ListedLinkRows = Omit<TransactionLinkRows, 'order' | 'device'> & {
  order: FinanceOrderParent | null;
  device: DeviceParent | null;
};

/** Which columns of each linked row a listing reads along, in any order (absent: the link is not joined). */
export type LinkColumns = Partial<Record<TransactionLink, readonly string[]>>;
/** In a LinkColumns list: every column of the row. */
export const EVERY_COLUMN = '*';

/**
 * A transaction as listed, the parent of the graph's transaction types: with the exact time for its
 * cursor (microseconds since the epoch), and its amount as the graph answers it, formatted as the row
 * was read (queries.ts listedRowReader), or the error that formatting it raised.
 */
export type ListedTransactionRow = TransactionRow &
  ListedLinksAtTop & { occurred_at_us: string; amount: string | Error };

/**
 * Where a listed transaction holds each link it read along at its top too (the same row as under
 * `links`): the graph's link fields read it there as a column, which jit compiles as a property read
 * where a resolver call costs three closures, a path and a resolve-info object (decisions.md 47).
 */
export const LISTED_LINK_AT = {
  merchant: 'merchant_row',
  clerk: 'clerk_row',
  order: 'order_row',
  device: 'device_row',
  payment: 'payment_row',
  adjustment: 'adjustment_row',
} as const satisfies Record<TransactionLink, string>;

type ListedLinksAtTop = { [Link in TransactionLink as (typeof LISTED_LINK_AT)[Link]]?: TransactionLinks[Link] };

/** A row of `adjustments`. */
export interface AdjustmentRow {
  partner_id: string;
  id: string;
  kind: 'payment' | 'commission';
  amount_minor: string;
  currency: string;
  notes: string;
  merchant_id: string;
  finance_order_id: string | null;
  operator_id: string | null;
  created_at: Date;
}

export interface TransactionConnectionParent {
  rows: ListedTransactionRow[];
  hasNextPage: boolean;
  /** Whether the window holds a transaction at or before the page's after cursor (null: a first page). */
  previousExists: (() => Promise<boolean>) | null;
}
