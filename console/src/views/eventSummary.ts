// One line in words for each event of the log, from its data as webhooks deliver it (openapi.json's
// webhooks: the graph dialect's amounts are decimal strings, the legacy dialect's JSON numbers).
import type { EventType } from '../__generated__/operations.js';
import { money, time, words } from '../format.js';

type Data = Record<string, unknown>;

/** The groups the live view's filter shows or hides; every type is in exactly one. */
export const EVENT_GROUPS = [
  { name: 'payments', label: 'Payments', types: ['PAYMENT_RECORDED', 'PAYMENT_REVERSED'] },
  {
    name: 'locks',
    label: 'Locks',
    types: ['DEVICE_LOCKED', 'DEVICE_UNLOCKED', 'DEVICE_LOCK_UPCOMING', 'DEVICE_RELEASED'],
  },
  { name: 'checkIns', label: 'Check-ins', types: ['DEVICE_CHECKED_IN', 'DEVICE_COMMAND_ACKNOWLEDGED'] },
  {
    name: 'orders',
    label: 'Orders',
    types: ['FINANCE_ORDER_CREATED', 'FINANCE_ORDER_PAID_OFF', 'FINANCE_ORDER_WRITTEN_OFF', 'FINANCE_ORDER_RETURNED'],
  },
  {
    name: 'other',
    label: 'Other',
    types: ['TRANSACTION_CREATED', 'WEBHOOK_TEST', 'REPORT_RUN_SUCCEEDED', 'REPORT_RUN_FAILED'],
  },
] as const satisfies ReadonlyArray<{ name: string; label: string; types: readonly EventType[] }>;

export type EventGroup = (typeof EVENT_GROUPS)[number]['name'];

/** The group of a type; a type added to the schema after this file falls in "other". */
export function groupOf(type: string): EventGroup {
  const found = EVENT_GROUPS.find((group) => (group.types as readonly string[]).includes(type));
  return found?.name ?? 'other';
}

const objectOf = (value: unknown): Data =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Data) : {};

const textOf = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;

const numberOf = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/** An amount as the data gives it (a decimal string, or a legacy JSON number shown as written). */
function amountOf(value: unknown, currency: unknown): string {
  const amount = textOf(value);
  return amount === null ? '-' : money(amount, textOf(currency) ?? '');
}

/** "device DTSTBBB" when the data names the device's tag, else "device". */
const onDevice = (data: Data): string => {
  const tag = textOf(objectOf(data.device).tag);
  return tag ? `device ${tag}` : 'device';
};

/** The order's balance after the event, when the data gives one. */
function balanceAfter(order: Data, currency: unknown): string {
  const balance = textOf(order.remainingBalance);
  return balance === null ? '' : `; ${money(balance, textOf(currency) ?? textOf(order.currency) ?? '')} still to pay`;
}

function paymentRecorded(data: Data): string {
  const payment = objectOf(data.payment);
  const order = objectOf(data.financeOrder);
  const channel = textOf(payment.channel);
  const tag = textOf(payment.deviceTag);
  return (
    `${amountOf(payment.amount, payment.currency)}` +
    `${channel ? ` ${words(channel).toLowerCase()}` : ''}` +
    `${tag ? ` for device ${tag}` : ''}` +
    `${order.fullyPaid === true ? '; paid off' : balanceAfter(order, payment.currency)}`
  );
}

function paymentReversed(data: Data): string {
  const payment = objectOf(data.payment);
  const reversal = objectOf(data.reversal);
  const by = textOf(reversal.reversedBy);
  const reason = textOf(reversal.reason);
  return (
    `${amountOf(payment.amount, payment.currency)} taken back` +
    `${by ? ` by the ${words(by).toLowerCase()}` : ''} on ${onDevice(data)}` +
    `${reason ? ` (“${reason}”)` : ''}${balanceAfter(objectOf(data.financeOrder), payment.currency)}`
  );
}

function deviceCheckedIn(data: Data): string {
  const state = textOf(data.lockState);
  const reason = textOf(data.reason);
  const app = textOf(data.appVersion);
  const sim = reason === 'SIM_MISMATCH' || data.simMismatch === true;
  const because = reason && reason !== 'SIM_MISMATCH' ? ` (${words(reason).toLowerCase()})` : '';
  return (
    `${onDevice(data)} checked in${state ? `: ${words(state).toLowerCase()}` : ''}${because}` +
    `${sim ? ', SIM mismatch' : ''}${app ? `, agent ${app}` : ''}`
  );
}

function commandAcknowledged(data: Data): string {
  const command = objectOf(data.command);
  const type = textOf(command.type);
  const hours = numberOf(command.hours);
  const message = textOf(command.message);
  return (
    `${onDevice(data)} acknowledged ${type ? words(type).toLowerCase() : 'a command'}` +
    `${hours !== null ? ` (${hours} h)` : ''}${message ? `: “${message}”` : ''}`
  );
}

/** finance_order.created and paid_off carry the legacy lookup's order object: numbers, the id at the top. */
function orderMade(data: Data, paidOff: boolean): string {
  const currency = data.currency;
  const months = numberOf(data.months);
  return (
    `${amountOf(data.financeAmount, currency)} financed` +
    `${months !== null ? ` over ${months} months at ${amountOf(data.monthlyCost, currency)} a month` : ''}` +
    `${paidOff ? ': nothing left to pay' : ''}`
  );
}

function orderClosed(data: Data): string {
  const order = objectOf(data.financeOrder);
  const note = textOf(order.note);
  return `${amountOf(order.clearedAmount, order.currency)} cleared; ${onDevice(data)}${note ? ` (“${note}”)` : ''}`;
}

function transactionCreated(data: Data): string {
  const type = textOf(data.type);
  const merchant = textOf(objectOf(data.merchant).name);
  return `${type ? words(type) : 'A'} transaction of ${amountOf(data.amount, data.currency)}${merchant ? ` at ${merchant}` : ''}`;
}

function reportRun(data: Data): string {
  const run = objectOf(data.reportRun);
  const type = textOf(run.type);
  const rows = numberOf(run.rowCount);
  const failure = textOf(run.failureReason);
  return `${type ? words(type) : 'A'} report${rows !== null ? `: ${rows} rows` : ''}${failure ? `: ${failure}` : ''}`;
}

/** What the event says, in one line: amounts with their currency, the device by its tag. */
export function summaryOf(event: { type: string; data: unknown }): string {
  const line = lineOf(event.type, objectOf(event.data));
  return line.charAt(0).toUpperCase() + line.slice(1);
}

function lineOf(type: string, data: Data): string {
  const order = objectOf(data.financeOrder);
  switch (type) {
    case 'PAYMENT_RECORDED':
      return paymentRecorded(data);
    case 'PAYMENT_REVERSED':
      return paymentReversed(data);
    case 'DEVICE_LOCKED':
      return `${onDevice(data)} locked: payment overdue${balanceAfter(order, order.currency)}`;
    case 'DEVICE_UNLOCKED': {
      const lockAt = numberOf(order.lockAt);
      return `${onDevice(data)} unlocked${lockAt !== null ? `; locks next at ${time(lockAt)}` : ''}`;
    }
    case 'DEVICE_LOCK_UPCOMING': {
      const days = numberOf(data.daysLeft);
      return (
        `${onDevice(data)} locks${days !== null ? ` in ${days} ${days === 1 ? 'day' : 'days'}` : ''}` +
        ` at ${time(numberOf(data.lockAt))}; ${amountOf(data.minimumPaymentAmount, order.currency)} moves it a day`
      );
    }
    case 'DEVICE_RELEASED':
      return `${onDevice(data)} released for good`;
    case 'DEVICE_CHECKED_IN':
      return deviceCheckedIn(data);
    case 'DEVICE_COMMAND_ACKNOWLEDGED':
      return commandAcknowledged(data);
    case 'FINANCE_ORDER_CREATED':
      return orderMade(data, false);
    case 'FINANCE_ORDER_PAID_OFF':
      return orderMade(data, true);
    case 'FINANCE_ORDER_WRITTEN_OFF':
    case 'FINANCE_ORDER_RETURNED':
      return orderClosed(data);
    case 'TRANSACTION_CREATED':
      return transactionCreated(data);
    case 'REPORT_RUN_SUCCEEDED':
    case 'REPORT_RUN_FAILED':
      return reportRun(data);
    case 'WEBHOOK_TEST':
      return `A test for webhook endpoint ${textOf(data.endpointId) ?? '-'}`;
    default:
      return '';
  }
}
