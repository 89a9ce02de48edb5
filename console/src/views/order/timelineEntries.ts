// The order's timeline, one list newest first: its making and closing, its payments (a reversal is an
// entry of its own), its device's commands (sent, delivered, acknowledged) and its device's events from
// the log (Device.events). Pure: the view draws what this returns.
import type { ConsoleOrderDeviceEventsQuery } from '../../__generated__/operations.js';
import { money, time, words } from '../../format.js';
import type { CommandData, OrderData, PaymentData } from './types.js';

export type DeviceEventData = NonNullable<ConsoleOrderDeviceEventsQuery['device']>['events']['nodes'][number];

export interface TimelineEntry {
  key: string;
  /** Unix seconds. */
  at: number;
  words: string;
  detail: string;
}

/** A member of an event's data (JSON the graph does not type), or undefined. */
function member(data: unknown, ...path: string[]): unknown {
  let value = data;
  for (const step of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

/** A scalar member as text; null when it is missing or not a scalar. */
function textOf(data: unknown, ...path: string[]): string | null {
  const value = member(data, ...path);
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
}

function paymentDetail(payment: PaymentData, currency: string): string {
  const amount = money(payment.amount, currency);
  if (payment.channel === 'VENDOR') {
    const vendor = payment.paymentVendor?.displayName ?? 'a payment vendor';
    return `${amount} through ${vendor}${payment.vendorReference ? ` (reference ${payment.vendorReference})` : ''}`;
  }
  const store = payment.merchant ? ` at ${payment.merchant.name}` : '';
  const clerk = payment.salesClerk ? ` by ${payment.salesClerk.name}` : '';
  return `${amount} in store${store}${clerk}`;
}

function paymentEntries(order: OrderData): TimelineEntry[] {
  return order.payments.flatMap((payment) => {
    const entries: TimelineEntry[] = [
      {
        key: `payment-${payment.id}`,
        at: payment.time,
        words: `Payment ${payment.id} received`,
        detail: paymentDetail(payment, order.currency),
      },
    ];
    const { reversal } = payment;
    if (reversal)
      entries.push({
        key: `reversal-${reversal.id}`,
        at: reversal.time,
        words: `Payment ${payment.id} reversed`,
        detail: `${money(reversal.amount, order.currency)} taken back: ${reversal.reason}. Balance after: ${money(reversal.remainingBalance, order.currency)}`,
      });
    return entries;
  });
}

function commandDetail(command: CommandData): string {
  if (command.type === 'UNLOCK_FOR_HOURS' && command.hours != null)
    return `${command.hours} hours; command ${command.id}`;
  if (command.type === 'SHOW_MESSAGE' && command.message != null) return `"${command.message}"; command ${command.id}`;
  return `Command ${command.id}`;
}

function commandEntries(commands: readonly CommandData[]): TimelineEntry[] {
  return commands.flatMap((command) => {
    const what = words(command.type);
    const detail = commandDetail(command);
    const entries: TimelineEntry[] = [
      { key: `command-${command.id}-sent`, at: command.createdAt, words: `Command sent: ${what}`, detail },
    ];
    if (command.deliveredAt != null)
      entries.push({
        key: `command-${command.id}-delivered`,
        at: command.deliveredAt,
        words: `Command delivered: ${what}`,
        detail,
      });
    if (command.acknowledgedAt != null)
      entries.push({
        key: `command-${command.id}-acknowledged`,
        at: command.acknowledgedAt,
        words: `Command acknowledged: ${what}`,
        detail,
      });
    return entries;
  });
}

const EVENT_WORDS: Partial<Record<DeviceEventData['type'], string>> = {
  DEVICE_LOCKED: 'Device locked',
  DEVICE_UNLOCKED: 'Device unlocked',
  DEVICE_RELEASED: 'Device released',
  DEVICE_LOCK_UPCOMING: 'Lock upcoming',
  DEVICE_CHECKED_IN: 'Device checked in',
  DEVICE_COMMAND_ACKNOWLEDGED: 'Command acknowledged',
};

function eventDetail(event: DeviceEventData, currency: string): string {
  const { data } = event;
  switch (event.type) {
    case 'DEVICE_LOCKED': {
      const reason = textOf(data, 'reason');
      return reason ? `Reason: ${words(reason)}` : 'Locked';
    }
    case 'DEVICE_UNLOCKED': {
      const lockAt = Number(textOf(data, 'financeOrder', 'lockAt'));
      return lockAt ? `Locks next at ${time(lockAt)}` : 'Paid off';
    }
    case 'DEVICE_RELEASED':
      return 'Released for good';
    case 'DEVICE_LOCK_UPCOMING': {
      const lockAt = Number(textOf(data, 'lockAt'));
      const minimum = textOf(data, 'minimumPaymentAmount');
      return [
        `${textOf(data, 'daysLeft') ?? '?'} days left`,
        lockAt ? `locks at ${time(lockAt)}` : null,
        minimum ? `minimum payment ${money(minimum, currency)}` : null,
      ]
        .filter(Boolean)
        .join('; ');
    }
    case 'DEVICE_CHECKED_IN': {
      const lockState = textOf(data, 'lockState');
      const reason = textOf(data, 'reason');
      const version = textOf(data, 'appVersion');
      return [
        lockState ? `Lock state: ${words(lockState)}${reason ? ` (${words(reason)})` : ''}` : null,
        version ? `lock agent ${version}` : null,
        member(data, 'simMismatch') === true ? 'SIM mismatch' : null,
      ]
        .filter(Boolean)
        .join('; ');
    }
    case 'DEVICE_COMMAND_ACKNOWLEDGED': {
      const type = textOf(data, 'command', 'type');
      return `${type ? words(type) : 'A command'}; command ${textOf(data, 'command', 'id') ?? '?'}`;
    }
    default:
      return '';
  }
}

function eventEntries(events: readonly DeviceEventData[], commands: readonly CommandData[], currency: string) {
  const commandIds = new Set(commands.map((command) => command.id));
  return (
    events
      // An acknowledgement of a command read above is already its entry "Command acknowledged".
      .filter(
        (event) =>
          event.type !== 'DEVICE_COMMAND_ACKNOWLEDGED' || !commandIds.has(textOf(event.data, 'command', 'id') ?? ''),
      )
      .map<TimelineEntry>((event) => ({
        key: `event-${event.id}`,
        at: event.occurredAt,
        words: EVENT_WORDS[event.type] ?? words(event.type),
        detail: eventDetail(event, currency),
      }))
  );
}

/** The order's own moments: made, and closed. */
function orderEntries(order: OrderData): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    {
      key: 'order-made',
      at: order.time,
      words: 'Order made',
      detail: `${money(order.financeAmount, order.currency)} financed over ${order.months} months`,
    },
  ];
  if (order.closedAt != null)
    entries.push({
      key: 'order-closed',
      at: order.closedAt,
      words: `Order closed: ${order.closedReason ? words(order.closedReason) : 'closed'}`,
      detail: order.closedNote ?? '',
    });
  return entries;
}

/** Every entry, newest first; entries of the same second keep their order of happening, newest first. */
export function timelineOf(order: OrderData, events: readonly DeviceEventData[]): TimelineEntry[] {
  const commands = order.device.commands.nodes;
  const entries = [
    ...orderEntries(order),
    ...paymentEntries(order),
    ...commandEntries(commands),
    ...eventEntries(events, commands, order.currency),
  ];
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => b.entry.at - a.entry.at || b.index - a.index)
    .map(({ entry }) => entry);
}
