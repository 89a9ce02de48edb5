/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** An ageing bucket: open orders by days past due. */
export type AgeingBucket =
  /** Paid through: 0 days past due. */
  | 'CURRENT'
  /** 1 to 30 days past due. */
  | 'DPD_1_30'
  /** 31 to 60 days past due. */
  | 'DPD_31_60'
  /** 61 to 90 days past due. */
  | 'DPD_61_90'
  /** 91 to 180 days past due. */
  | 'DPD_91_180'
  /** More than 180 days past due. */
  | 'DPD_OVER_180';

/** The kind of API key used, which decides what the caller may do. */
export type ApiKeyKind =
  /** An operator's key: everything, for every partner. */
  | 'OPERATOR'
  /** A partner's query key: lookups, carts and transactions. */
  | 'PARTNER'
  /** A partner's retail key, used by point-of-sale systems: lookups and in-store payments. */
  | 'RETAIL'
  /** A payment vendor's key: buys access tokens, nothing else. */
  | 'VENDOR';

/** What an event says happened. */
export type EventType =
  /** A device checked in at the device door: at most one per device per hour (data: lockState, reason, appVersion, simMismatch). */
  | 'DEVICE_CHECKED_IN'
  /** A device acknowledged a command at a check-in (data: the device and the command, decisions.md 20). */
  | 'DEVICE_COMMAND_ACKNOWLEDGED'
  /** A device locked: its order reached lockAt unpaid (data: reason PAYMENT_OVERDUE). */
  | 'DEVICE_LOCKED'
  /** A device's lock is near: sent once for each of its partner's lockReminderDays before lockAt (data: daysLeft, lockAt, minimumPaymentAmount). */
  | 'DEVICE_LOCK_UPCOMING'
  /** An order's device released for good: when its payoff's reversal window closed (at releaseAt), or with the payoff under a window of 0 (decisions.md 44). */
  | 'DEVICE_RELEASED'
  /** A payment moved a locked order's lockAt into the future (or paid it off, until its releaseAt): its device unlocked. */
  | 'DEVICE_UNLOCKED'
  /** A cart was financed: a finance order was created. */
  | 'FINANCE_ORDER_CREATED'
  /** The payment that brought an order's balance to 0 was recorded. */
  | 'FINANCE_ORDER_PAID_OFF'
  /** An operator closed an order whose device was returned: its balance cleared, the device back in stock. */
  | 'FINANCE_ORDER_RETURNED'
  /** An operator wrote an order off: its balance cleared, its device locked for good. */
  | 'FINANCE_ORDER_WRITTEN_OFF'
  /** A payment was recorded, in store or through a vendor (a replay writes no event). */
  | 'PAYMENT_RECORDED'
  /** A payment was reversed inside its window (data: the reversal, the payment, the order's new balance and lockAt). */
  | 'PAYMENT_REVERSED'
  /** A report run failed (data: the run and the reason). */
  | 'REPORT_RUN_FAILED'
  /** A report run's file is ready (data: the run; ReportRun.downloadUrl gives its link). */
  | 'REPORT_RUN_SUCCEEDED'
  /** A partner transaction was written (finance, cash, commission, adjustment). */
  | 'TRANSACTION_CREATED'
  /** A test message sendTestWebhook queued: delivered only to the endpoint tested, never to subscriptions. */
  | 'WEBHOOK_TEST';

/** How portfolioMetrics groups its rows: every row of a grouping sums exactly (counts and money) to the NONE row. */
export type PortfolioGroupBy =
  /** A row per month of sale (UTC): group is "YYYY-MM". */
  | 'COHORT_MONTH'
  /** A row per device model: group is the model's name. */
  | 'DEVICE_MODEL'
  /** A row per store: group is the merchant's id. */
  | 'MERCHANT'
  /** One row per currency, group "all". */
  | 'NONE';

/** What kind of principal a credential belongs to. */
export type PrincipalKind =
  /** Internal staff: sees every partner. */
  | 'OPERATOR'
  /** A retail chain: the tenant whose merchants, clerks, customers and orders the data is. */
  | 'PARTNER'
  /** A payment vendor (convenience store, mobile money): notifies the service of payments it collected. */
  | 'VENDOR';

/** How a device stands, from its current order's payments. */
export type SecureStatus =
  /** Paid through a moment still in the future: usable, and secured against tampering. */
  | 'ACTIVE_AND_SECURED'
  /** Paid-through time has passed: locked until a payment arrives. */
  | 'LOCKED'
  /** Fully paid: released for good. */
  | 'RELEASED';

/** Where to put a partner's sandbox clock. */
export type SetSandboxClockInput = {
  /** The partner's new time: not before its current time. */
  now: number;
  /** The partner. */
  partnerId: string | number;
};

export type ConsoleLiveEventsSubscriptionVariables = Exact<{
  partnerId?: string | number | null | undefined;
}>;


export type ConsoleLiveEventsSubscription = { events: { id: string, type: EventType, occurredAt: number, sequence: string, data: unknown } };

export type ConsoleLockedDevicesQueryVariables = Exact<{
  partnerId?: string | number | null | undefined;
  merchantId?: string | number | null | undefined;
  first: number;
  after?: string | null | undefined;
}>;


export type ConsoleLockedDevicesQuery = { financeOrders: { nodes: Array<{ id: string, currency: string, paidThrough: number, lockAt: number | null, remainingBalance: string, customer: { id: string, name: string }, merchant: { id: string, name: string }, device: { id: string, tag: string, imei: string, model: { id: string, name: string } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ConsolePartnerMerchantsQueryVariables = Exact<{
  partnerId: string | number;
  first: number;
}>;


export type ConsolePartnerMerchantsQuery = { partner: { id: string, merchants: Array<{ id: string, name: string }> } | null };

export type ConsolePartnersQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsolePartnersQuery = { partners: Array<{ id: string, name: string }> };

export type ConsolePortfolioAgeingQueryVariables = Exact<{
  partnerId: string | number;
}>;


export type ConsolePortfolioAgeingQuery = { portfolioAgeing: Array<{ currency: string, asOf: number, orders: number, outstanding: string, buckets: Array<{ bucket: AgeingBucket, orders: number, outstanding: string }> }> };

export type ConsolePortfolioHistoryQueryVariables = Exact<{
  partnerId: string | number;
  from: string;
  to: string;
}>;


export type ConsolePortfolioHistoryQuery = { portfolioHistory: Array<{ day: string, metrics: { currency: string, par30: string | null, par60: string | null, par90: string | null, collectionRate: string | null } }> };

export type ConsolePortfolioMerchantsQueryVariables = Exact<{
  partnerId: string | number;
}>;


export type ConsolePortfolioMerchantsQuery = { partner: { id: string, merchants: Array<{ id: string, name: string }> } | null };

export type ConsolePortfolioMetricsQueryVariables = Exact<{
  partnerId: string | number;
  groupBy: PortfolioGroupBy;
}>;


export type ConsolePortfolioMetricsQuery = { portfolioMetrics: Array<{ group: string, currency: string, asOf: number, openOrders: number, outstanding: string, par30: string | null, par60: string | null, par90: string | null, collectionRate: string | null, firstPaymentDefaultRate: string | null, lockedShare: string | null, writtenOff: string, writeOffRatio: string | null }> };

export type ConsoleRecentEventsQueryVariables = Exact<{
  partnerId?: string | number | null | undefined;
  first: number;
  after?: string | null | undefined;
}>;


export type ConsoleRecentEventsQuery = { events: { nodes: Array<{ id: string, type: EventType, occurredAt: number, sequence: string, data: unknown }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ConsoleResetSandboxClockMutationVariables = Exact<{
  partnerId: string | number;
}>;


export type ConsoleResetSandboxClockMutation = { resetSandboxClock: { partnerId: string, now: number, realNow: number } };

export type ConsoleSandboxClockQueryVariables = Exact<{
  partnerId: string | number;
}>;


export type ConsoleSandboxClockQuery = { partner: { id: string, nextLockAt: number | null, sandboxClock: { now: number, realNow: number } | null } | null };

export type ConsoleSetSandboxClockMutationVariables = Exact<{
  input: SetSandboxClockInput;
}>;


export type ConsoleSetSandboxClockMutation = { setSandboxClock: { partnerId: string, now: number, realNow: number } };

export type ConsoleSilentDevicesQueryVariables = Exact<{
  partnerId?: string | number | null | undefined;
  silentForDays: number;
  first: number;
  after?: string | null | undefined;
}>;


export type ConsoleSilentDevicesQuery = { devices: { nodes: Array<{ id: string, tag: string, imei: string, silentSince: number | null, lastSeen: number | null, secureStatus: SecureStatus | null, model: { id: string, name: string }, customer: { id: string, name: string } | null, financeOrder: { id: string } | null }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ConsoleViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleViewerQuery = { viewer: { kind: PrincipalKind, keyKind: ApiKeyKind, partner: { id: string, name: string } | null } };
