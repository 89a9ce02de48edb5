/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
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

/** What kind of principal a credential belongs to. */
export type PrincipalKind =
  /** Internal staff: sees every partner. */
  | 'OPERATOR'
  /** A retail chain: the tenant whose merchants, clerks, customers and orders the data is. */
  | 'PARTNER'
  /** A payment vendor (convenience store, mobile money): notifies the service of payments it collected. */
  | 'VENDOR';

export type ConsoleLiveEventsSubscriptionVariables = Exact<{
  partnerId?: string | number | null | undefined;
}>;


export type ConsoleLiveEventsSubscription = { events: { id: string, type: EventType, occurredAt: number, sequence: string, data: unknown } };

export type ConsolePartnersQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsolePartnersQuery = { partners: Array<{ id: string, name: string }> };

export type ConsoleRecentEventsQueryVariables = Exact<{
  partnerId?: string | number | null | undefined;
  first: number;
}>;


export type ConsoleRecentEventsQuery = { events: { nodes: Array<{ id: string, type: EventType, occurredAt: number, sequence: string, data: unknown }> } };

export type ConsoleViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleViewerQuery = { viewer: { kind: PrincipalKind, keyKind: ApiKeyKind, partner: { id: string, name: string } | null } };
