// The graph's EventType (PAYMENT_RECORDED) and the log's type name (payment.recorded), both ways: the
// one table Query.events, Subscription.events and the webhook endpoints read.
import type { EventType } from '../../__generated__/resolvers.js';
import type { EventTypeName } from './rows.js';

const LOG_NAMES: Readonly<Record<EventType, EventTypeName>> = {
  PAYMENT_RECORDED: 'payment.recorded',
  TRANSACTION_CREATED: 'transaction.created',
  FINANCE_ORDER_CREATED: 'finance_order.created',
  FINANCE_ORDER_PAID_OFF: 'finance_order.paid_off',
  WEBHOOK_TEST: 'webhook.test',
  DEVICE_LOCK_UPCOMING: 'device.lock_upcoming',
  DEVICE_LOCKED: 'device.locked',
  DEVICE_UNLOCKED: 'device.unlocked',
  DEVICE_RELEASED: 'device.released',
  DEVICE_COMMAND_ACKNOWLEDGED: 'device.command_acknowledged',
  DEVICE_CHECKED_IN: 'device.checked_in',
  PAYMENT_REVERSED: 'payment.reversed',
  FINANCE_ORDER_WRITTEN_OFF: 'finance_order.written_off',
  FINANCE_ORDER_RETURNED: 'finance_order.returned',
  REPORT_RUN_SUCCEEDED: 'report_run.succeeded',
  REPORT_RUN_FAILED: 'report_run.failed',
};

const GRAPH_NAMES = Object.fromEntries(Object.entries(LOG_NAMES).map(([graph, log]) => [log, graph])) as Readonly<
  Record<EventTypeName, EventType>
>;

export const logEventType = (type: EventType): EventTypeName => LOG_NAMES[type];
export const graphEventType = (type: EventTypeName): EventType => GRAPH_NAMES[type];
