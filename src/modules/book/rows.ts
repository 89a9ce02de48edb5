// The book's shapes (docs/decisions.md 45): the sums every figure is computed from, per group and
// currency, as the one SQL pass (figures.ts) and the stored snapshots (snapshots.ts) both give them.

/** How portfolioMetrics groups its rows. */
export type PortfolioGroupBy = 'NONE' | 'MERCHANT' | 'DEVICE_MODEL' | 'COHORT_MONTH';

/** Open orders by days past due. */
export type AgeingBucketName = 'CURRENT' | 'DPD_1_30' | 'DPD_31_60' | 'DPD_61_90' | 'DPD_91_180' | 'DPD_OVER_180';

/**
 * A group's sums as of a moment, in one currency: every ratio of PortfolioMetrics is one of these over
 * another (ratios.ts), so a snapshot and the figures computed again at its moment answer the same.
 */
export interface PortfolioSums {
  group: string;
  currency: string;
  asOf: Date;
  openOrders: number;
  outstandingMinor: bigint;
  par30Minor: bigint;
  par60Minor: bigint;
  par90Minor: bigint;
  lockedOrders: number;
  collectedMinor: bigint;
  dueMinor: bigint;
  firstPaymentDefaulted: number;
  firstPaymentEligible: number;
  writtenOffMinor: bigint;
  periodStartOutstandingMinor: bigint;
}

/** One bucket of an ageing. */
export interface AgeingBucketParent {
  bucket: AgeingBucketName;
  orders: number;
  outstandingMinor: bigint;
  currency: string;
}

/** A partner's ageing in one currency: the buckets (CURRENT first, every one) and their totals. */
export interface PortfolioAgeingParent {
  currency: string;
  asOf: Date;
  buckets: AgeingBucketParent[];
  orders: number;
  outstandingMinor: bigint;
}

/** A point of a history: a day and its snapshot's sums. */
export interface PortfolioHistoryPointParent {
  day: string;
  metrics: PortfolioSums;
}

/** A row of `portfolio_snapshots`: a day's NONE sums of one currency (int8 as strings). */
export interface PortfolioSnapshotRow {
  partner_id: string;
  day: string;
  currency: string;
  as_of: Date;
  open_orders: number;
  outstanding_minor: string;
  par30_minor: string;
  par60_minor: string;
  par90_minor: string;
  locked_orders: number;
  collected_minor: string;
  due_minor: string;
  first_payment_defaulted: number;
  first_payment_eligible: number;
  written_off_minor: string;
  period_start_outstanding_minor: string;
}
