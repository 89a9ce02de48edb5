// The order view's timeline (console/src/views/order/timelineEntries.ts): one list, newest first, merged
// from the order's payments and reversals, its device's commands and its device's events.
import { describe, expect, it } from 'vitest';
import { type DeviceEventData, timelineOf } from '../../console/src/views/order/timelineEntries.js';
import type { CommandData, OrderData, PaymentData } from '../../console/src/views/order/types.js';

const payment = (id: string, time: number, reversal: PaymentData['reversal'] = null): PaymentData => ({
  id,
  amount: '18.00',
  time,
  channel: 'IN_STORE',
  vendorReference: null,
  reversibleUntil: time + 3 * 86_400,
  merchant: { name: 'DEMO' },
  salesClerk: { name: 'DemoClerk' },
  paymentVendor: null,
  reversal,
});

const command = (id: string, createdAt: number, acknowledgedAt: number | null = null): CommandData => ({
  id,
  type: 'LOCK_NOW',
  status: acknowledgedAt ? 'ACKNOWLEDGED' : 'PENDING',
  hours: null,
  message: null,
  createdAt,
  deliveredAt: acknowledgedAt,
  acknowledgedAt,
});

function orderWith(payments: PaymentData[], commands: CommandData[]): OrderData {
  return {
    id: '4000004',
    time: 1_000,
    currency: 'USD',
    financeAmount: '200.00',
    months: 12,
    closedAt: null,
    closedReason: null,
    closedNote: null,
    payments,
    device: { commands: { nodes: commands } },
  } as unknown as OrderData;
}

const event = (id: string, type: DeviceEventData['type'], occurredAt: number, data: unknown): DeviceEventData => ({
  id,
  type,
  occurredAt,
  data,
});

describe('the order timeline', () => {
  it('merges payments, reversals, commands and events, newest first', () => {
    const order = orderWith(
      [
        payment('10', 2_000),
        payment('11', 4_000, {
          id: 'r1',
          amount: '18.00',
          reason: 'Paid twice',
          time: 6_000,
          remainingBalance: '198.00',
        }),
      ],
      [command('c1', 3_000)],
    );
    const entries = timelineOf(order, [event('evt_1', 'DEVICE_LOCKED', 5_000, { reason: 'PAYMENT_OVERDUE' })]);
    expect(entries.map((entry) => [entry.at, entry.words])).toEqual([
      [6_000, 'Payment 11 reversed'],
      [5_000, 'Device locked'],
      [4_000, 'Payment 11 received'],
      [3_000, 'Command sent: Lock now'],
      [2_000, 'Payment 10 received'],
      [1_000, 'Order made'],
    ]);
    expect(entries[0]!.detail).toBe('18.00 USD taken back: Paid twice. Balance after: 198.00 USD');
    expect(entries[1]!.detail).toBe('Reason: Payment overdue');
    expect(entries[2]!.detail).toBe('18.00 USD in store at DEMO by DemoClerk');
  });

  it('tells an acknowledged command once: by the command read, not again by its event', () => {
    const order = orderWith([], [command('c1', 3_000, 3_600)]);
    const entries = timelineOf(order, [
      event('evt_1', 'DEVICE_COMMAND_ACKNOWLEDGED', 3_600, { command: { id: 'c1', type: 'LOCK_NOW' } }),
      event('evt_2', 'DEVICE_COMMAND_ACKNOWLEDGED', 3_500, { command: { id: 'c0', type: 'RELEASE' } }),
    ]);
    expect(entries.map((entry) => entry.words)).toEqual([
      'Command acknowledged: Lock now',
      'Command delivered: Lock now',
      'Command acknowledged',
      'Command sent: Lock now',
      'Order made',
    ]);
    expect(entries[2]!.detail).toBe('Release; command c0');
  });

  it('reads an event whose data lacks its members without failing', () => {
    const entries = timelineOf(orderWith([], []), [
      event('evt_1', 'DEVICE_LOCK_UPCOMING', 2_000, null),
      event('evt_2', 'DEVICE_CHECKED_IN', 1_500, { lockState: 'UNLOCKED', simMismatch: true }),
    ]);
    expect(entries.map((entry) => [entry.words, entry.detail])).toEqual([
      ['Lock upcoming', '? days left'],
      ['Device checked in', 'Lock state: Unlocked; SIM mismatch'],
      ['Order made', '200.00 USD financed over 12 months'],
    ]);
  });
});
