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

/** An operator's close of a finance order. */
export type CloseFinanceOrderInput = {
  /** The order. */
  financeOrderId: string | number;
  /** What happened, 1 to 500 characters: kept with the order and in the ledger's note. */
  note: string;
  /** Why. */
  reason: FinanceOrderCloseReason;
};

/** A payment reference to make: give exactly one of amount and daysPaid. */
export type CreatePaymentReferenceInput = {
  /** The amount, checked like a payment: more than zero, at most the remaining balance, the currency's decimal places. */
  amount?: string | null | undefined;
  /** Or a number of days (1 to 3,600): the amount is the cheapest that buys at least that many, capped at the balance. */
  daysPaid?: number | null | undefined;
  /** Hours until it expires: 1 to 720 (the default is 72). */
  expiresInHours?: number | null | undefined;
  /** The order to pay towards: one of the key's partner's (operators: any). */
  financeOrderId: string | number;
};

/** Where a device command stands. */
export type DeviceCommandStatus =
  /** The device acknowledged it in a later check-in. */
  | 'ACKNOWLEDGED'
  /** A check-in answer carried it to the device; every check-in carries it again until the device acknowledges it. */
  | 'DELIVERED'
  /** Not acknowledged 7 days after it was sent (on the partner's clock): carried no more (deliveredAt says whether an answer ever carried it). */
  | 'EXPIRED'
  /** Waiting for the device's next check-in. */
  | 'PENDING';

/** What a command asks of a device's lock agent (decisions.md 20). */
export type DeviceCommandType =
  /** Lock now, whatever the order says, until a later UNLOCK_FOR_HOURS or RELEASE, or a payment received after it. */
  | 'LOCK_NOW'
  /** Remove the lock for good: only for a device whose order is paid off and released (not while its payoff can be reversed). */
  | 'RELEASE'
  /** Show message (1 to 500 characters, no control character but the newline, no bidirectional override) on the device's screen. */
  | 'SHOW_MESSAGE'
  /** A locked device may be used for hours (1 to 720) from the first check-in that carries it; the order is not changed. */
  | 'UNLOCK_FOR_HOURS';

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

/** Why an operator closed a finance order (decisions.md 44). */
export type FinanceOrderCloseReason =
  /** The customer handed the device back. */
  | 'DEVICE_RETURNED'
  /** The customer will not pay: the balance is a loss. */
  | 'WRITE_OFF';

/**
 * Where a finance order stands at the moment of the request, by the rules of secureStatus (decisions.md
 * 5): the total paid against the repayable total, and the paid-through time against now.
 */
export type FinanceOrderStatus =
  /** Something remains to pay, and the order is paid through a moment still in the future (secureStatus ACTIVE_AND_SECURED). */
  | 'ACTIVE'
  /** Something remains to pay, and the paid-through moment has come (secureStatus LOCKED). */
  | 'LOCKED'
  /** Nothing remains to pay (secureStatus RELEASED, or ACTIVE_AND_SECURED while completing: until releaseAt). */
  | 'PAID_OFF'
  /** Closed by an operator when the customer handed the device back: the balance was cleared, the device went back to stock (secureStatus LOCKED until a new order finances it). */
  | 'RETURNED'
  /** Closed by an operator as a loss: the balance was cleared, the device stays locked and is never released (secureStatus LOCKED). */
  | 'WRITTEN_OFF';

/** Where a payment was taken. */
export type PaymentChannel =
  /** In a partner's store, recorded by a clerk. */
  | 'IN_STORE'
  /** Collected by a payment vendor, which notified the service. */
  | 'VENDOR';

/** Where a payment reference stands (decisions.md 17). */
export type PaymentReferenceStatus =
  /** Cancelled by the partner or an operator before it was paid. */
  | 'CANCELLED'
  /** Not paid by expiresAt (on the partner's clock, from the second expiresAt shows), or found so when the partner's sandbox clock was reset: a vendor can no longer pay it. */
  | 'EXPIRED'
  /** Waiting for its payment, before expiresAt. */
  | 'OPEN'
  /** Paid, once: payment names the payment. */
  | 'PAID';

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

/** A reversal of a payment by its id. */
export type ReversePaymentInput = {
  /** Makes a retry harmless: the same request with the same key answers the first answer (1 to 255 printable ASCII characters). */
  idempotencyKey?: string | null | undefined;
  /** The payment. */
  paymentId: string | number;
  /** Why it is reversed: 1 to 500 characters. */
  reason: string;
};

/** How a device stands, from its current order's payments. */
export type SecureStatus =
  /** Paid through a moment still in the future: usable, and secured against tampering. */
  | 'ACTIVE_AND_SECURED'
  /** Paid-through time has passed: locked until a payment arrives. */
  | 'LOCKED'
  /** Fully paid: released for good. */
  | 'RELEASED';

/** A command for one device: hours for UNLOCK_FOR_HOURS only, message for SHOW_MESSAGE only. */
export type SendDeviceCommandInput = {
  /** The device: one of the key's partner's (operators: any). */
  deviceId: string | number;
  /** UNLOCK_FOR_HOURS: 1 to 720; not given for the other types. */
  hours?: number | null | undefined;
  /**
   * SHOW_MESSAGE: 1 to 500 characters, not only spaces, with no control character but the newline, no
   * bidirectional embedding, override or isolate, and no line or paragraph separator; not given for the
   * other types.
   */
  message?: string | null | undefined;
  /** What to ask of the device. */
  type: DeviceCommandType;
};

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

export type ConsoleOrderQueryVariables = Exact<{
  id: string | number;
  partnerId: string | number;
}>;


export type ConsoleOrderQuery = { financeOrder: { id: string, time: number, currency: string, purchaseAmount: string, downPayment: string, financeAmount: string, monthlyCost: string, weeklyCost: string, months: number, repayableTotal: string, totalPaid: string, remainingBalance: string, paidThrough: number, lockAt: number | null, releaseAt: number | null, fullyPaid: boolean, status: FinanceOrderStatus, closedAt: number | null, closedReason: FinanceOrderCloseReason | null, closedNote: string | null, customer: { id: string, name: string, phoneNumber: string }, device: { id: string, tag: string, imei: string, secureStatus: SecureStatus | null, lastSeen: number | null, lastCheckin: { at: number, appVersion: string | null } | null, model: { name: string, makeModel: string }, commands: { nodes: Array<{ id: string, type: DeviceCommandType, status: DeviceCommandStatus, hours: number | null, message: string | null, createdAt: number, deliveredAt: number | null, acknowledgedAt: number | null }> } }, repayment: { minimumPaymentAmount: string, fullPayoffAmount: string, options: Array<{ daysPaid: number, amount: string, lockAt: number }> }, payments: Array<{ id: string, amount: string, time: number, channel: PaymentChannel, vendorReference: string | null, reversibleUntil: number, merchant: { name: string } | null, salesClerk: { name: string } | null, paymentVendor: { displayName: string } | null, reversal: { id: string, amount: string, reason: string, time: number, remainingBalance: string } | null }>, paymentReferences: { nodes: Array<{ id: string, code: string, amount: string, daysPaid: number, expiresAt: number, status: PaymentReferenceStatus }> } } | null, partner: { id: string, sandboxClock: { now: number, realNow: number } | null } | null };

export type ConsoleOrderCancelPaymentReferenceMutationVariables = Exact<{
  code: string;
}>;


export type ConsoleOrderCancelPaymentReferenceMutation = { cancelPaymentReference: { id: string, code: string, status: PaymentReferenceStatus } };

export type ConsoleOrderCloseMutationVariables = Exact<{
  input: CloseFinanceOrderInput;
}>;


export type ConsoleOrderCloseMutation = { closeFinanceOrder: { id: string, status: FinanceOrderStatus, closedAt: number | null, closedReason: FinanceOrderCloseReason | null } };

export type ConsoleOrderCreatePaymentReferenceMutationVariables = Exact<{
  input: CreatePaymentReferenceInput;
}>;


export type ConsoleOrderCreatePaymentReferenceMutation = { createPaymentReference: { id: string, code: string, amount: string, currency: string, daysPaid: number, expiresAt: number, status: PaymentReferenceStatus } };

export type ConsoleOrderDeviceEventsQueryVariables = Exact<{
  deviceId: string | number;
}>;


export type ConsoleOrderDeviceEventsQuery = { device: { events: { nodes: Array<{ id: string, type: EventType, occurredAt: number, data: unknown }> } } | null };

export type ConsoleOrderReversePaymentMutationVariables = Exact<{
  input: ReversePaymentInput;
}>;


export type ConsoleOrderReversePaymentMutation = { reversePayment: { id: string, remainingBalance: string, payment: { id: string } } };

export type ConsoleOrderSendDeviceCommandMutationVariables = Exact<{
  input: SendDeviceCommandInput;
}>;


export type ConsoleOrderSendDeviceCommandMutation = { sendDeviceCommand: { id: string, type: DeviceCommandType, status: DeviceCommandStatus } };

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
