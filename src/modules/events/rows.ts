/** What the log records; the graph's EventType is the same set in capitals (PAYMENT_RECORDED ...). */
export const EVENT_TYPES = [
  'payment.recorded',
  'transaction.created',
  'finance_order.created',
  'finance_order.paid_off',
  // sendTestWebhook's: in its partner's log, delivered only to the endpoint tested.
  'webhook.test',
  // The lock timeline's (docs/decisions.md 18).
  'device.lock_upcoming',
  'device.locked',
  'device.unlocked',
  'device.released',
  // A device command acknowledged at a check-in (docs/decisions.md 20).
  'device.command_acknowledged',
  // The device door's (docs/decisions.md 19): at most one per device per hour.
  'device.checked_in',
  // Corrections (docs/decisions.md 44).
  'payment.reversed',
  'finance_order.written_off',
  'finance_order.returned',
  // A report run that ended (docs/decisions.md 45).
  'report_run.succeeded',
  'report_run.failed',
] as const;

export type EventTypeName = (typeof EVENT_TYPES)[number];

/** A row of `events`: its data is fixed when written and never changes. */
export interface EventRow {
  partner_id: string;
  id: string;
  /** From one database sequence: increasing with each event written. */
  sequence: string;
  type: EventTypeName;
  occurred_at: Date;
  data: unknown;
  /** The W3C traceparent of the request that wrote it (null: tracing was off); read by the webhook worker only. */
  traceparent?: string | null;
  /** The exact time in microseconds since the epoch, when a listing read it (for its cursor). */
  occurred_at_us?: string;
}

/** An event about to be written, in the change's transaction. */
export interface NewEvent {
  type: EventTypeName;
  occurredAt: Date;
  data: unknown;
}

/** A page of the log as the graph answers it. */
export interface EventPage {
  rows: EventRow[];
  hasNextPage: boolean;
  /** One partner's page, ordered by sequence, or every partner's, by time. */
  byPartner: boolean;
  /** Whether the log holds an event at or before the page's after cursor (null: a first page). */
  previousExists: (() => Promise<boolean>) | null;
}

/** An edge of an EventConnection. */
export interface EventEdgeParent {
  cursor: string;
  node: EventRow;
}
