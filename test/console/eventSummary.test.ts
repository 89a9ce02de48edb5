// The live view's lines and filter groups (console/src/views/eventSummary.ts) against the event types
// of the schema and the data shapes of the webhooks (openapi.json): a type added or a shape changed
// shows here before it shows as a blank line in the console.
import { readFileSync } from 'node:fs';
import { buildSchema, type GraphQLEnumType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { EVENT_GROUPS, groupOf, summaryOf } from '../../console/src/views/eventSummary.js';

const schema = buildSchema(readFileSync(new URL('../schema-snapshot.graphql', import.meta.url), 'utf8'));
const eventTypes = (schema.getType('EventType') as GraphQLEnumType).getValues().map((value) => value.name);

const device = { tag: 'DTSTBBB', imei: '123456789012347' };
const order = { id: '4000004', remainingBalance: '198.00', currency: 'USD', lockAt: 1801180800 };

describe('the live view’s filter groups', () => {
  it('put every event type of the schema in exactly one group', () => {
    for (const type of eventTypes) {
      const groups = EVENT_GROUPS.filter((group) => (group.types as readonly string[]).includes(type));
      expect(
        groups.map((group) => group.name),
        type,
      ).toHaveLength(1);
    }
    const grouped = EVENT_GROUPS.flatMap((group) => group.types as readonly string[]);
    expect([...grouped].sort()).toEqual([...eventTypes].sort());
  });

  it('groups payments, locks, check-ins and orders as the view names them', () => {
    expect(groupOf('PAYMENT_REVERSED')).toBe('payments');
    expect(groupOf('DEVICE_LOCK_UPCOMING')).toBe('locks');
    expect(groupOf('DEVICE_COMMAND_ACKNOWLEDGED')).toBe('checkIns');
    expect(groupOf('FINANCE_ORDER_WRITTEN_OFF')).toBe('orders');
    expect(groupOf('A_TYPE_NOT_YET_KNOWN')).toBe('other');
  });
});

describe('an event’s line', () => {
  const cases: Array<[string, unknown, string]> = [
    [
      'PAYMENT_RECORDED',
      {
        payment: {
          id: '4000009',
          time: 1795046400,
          amount: '1234.50',
          currency: 'USD',
          channel: 'IN_STORE',
          deviceTag: 'DTSTBBB',
          financeOrderId: '4000004',
        },
        financeOrder: { id: '4000004', remainingBalance: '198.00', nextPayment: 1801180800, fullyPaid: false },
      },
      '1,234.50 USD in store for device DTSTBBB; 198.00 USD still to pay',
    ],
    [
      'PAYMENT_REVERSED',
      {
        reversal: { id: '1', time: 1795046400, reason: 'wrong order', reversedBy: 'OPERATOR' },
        payment: {
          id: '4000009',
          time: 1795046400,
          amount: '5.00',
          currency: 'USD',
          channel: 'IN_STORE',
          vendorReference: null,
        },
        financeOrder: { ...order, status: 'ACTIVE', remainingBalance: '203.00' },
        device,
      },
      '5.00 USD taken back by the operator on device DTSTBBB (“wrong order”); 203.00 USD still to pay',
    ],
    [
      'DEVICE_LOCKED',
      { device, financeOrder: order, reason: 'PAYMENT_OVERDUE' },
      'Device DTSTBBB locked: payment overdue; 198.00 USD still to pay',
    ],
    [
      'DEVICE_UNLOCKED',
      { device, financeOrder: order },
      'Device DTSTBBB unlocked; locks next at 2027-01-29 00:00:00 UTC',
    ],
    [
      'DEVICE_LOCK_UPCOMING',
      { device, financeOrder: order, daysLeft: 3, lockAt: 1801180800, minimumPaymentAmount: '0.60' },
      'Device DTSTBBB locks in 3 days at 2027-01-29 00:00:00 UTC; 0.60 USD moves it a day',
    ],
    [
      'DEVICE_CHECKED_IN',
      { device, lockState: 'LOCKED', reason: 'PAYMENT_OVERDUE', appVersion: '2.1.0', simMismatch: false },
      'Device DTSTBBB checked in: locked (payment overdue), agent 2.1.0',
    ],
    [
      'DEVICE_RELEASED',
      { device, financeOrder: { ...order, remainingBalance: '0.00', lockAt: null } },
      'Device DTSTBBB released for good',
    ],
    [
      'DEVICE_CHECKED_IN',
      { device, lockState: 'LOCKED', reason: 'SIM_MISMATCH', appVersion: '2.1.0', simMismatch: true },
      'Device DTSTBBB checked in: locked, SIM mismatch, agent 2.1.0',
    ],
    [
      'DEVICE_COMMAND_ACKNOWLEDGED',
      {
        device,
        command: {
          id: '7',
          type: 'UNLOCK_FOR_HOURS',
          hours: 24,
          message: null,
          createdAt: 1795046400,
          deliveredAt: 1795046500,
          acknowledgedAt: 1795046600,
        },
      },
      'Device DTSTBBB acknowledged unlock for hours (24 h)',
    ],
    [
      'FINANCE_ORDER_CREATED',
      { id: 4000013, currency: 'USD', financeAmount: 200, monthlyCost: 18.5, months: 12, remainingBalance: 222 },
      '200 USD financed over 12 months at 18.5 USD a month',
    ],
    [
      'FINANCE_ORDER_WRITTEN_OFF',
      {
        financeOrder: {
          id: '4000012',
          status: 'WRITTEN_OFF',
          closedAt: 1795046400,
          closedReason: 'WRITE_OFF',
          note: 'gone',
          clearedAmount: '240.00',
          currency: 'USD',
        },
        adjustment: { id: '2' },
        device: { tag: 'DTSTBBD', imei: null },
      },
      '240.00 USD cleared; device DTSTBBD (“gone”)',
    ],
    [
      'TRANSACTION_CREATED',
      {
        type: 'cash',
        time: 1795046400,
        amount: -18,
        currency: 'USD',
        merchant: { id: 851005, name: 'DEMO' },
        financeOrder: { id: 4000004 },
      },
      'Cash transaction of -18 USD at DEMO',
    ],
    [
      'REPORT_RUN_FAILED',
      { reportRun: { id: '3', type: 'AGEING', state: 'FAILED', rowCount: null, failureReason: 'INTERNAL: disk full' } },
      'Ageing report: INTERNAL: disk full',
    ],
    ['WEBHOOK_TEST', { test: true, endpointId: '12' }, 'A test for webhook endpoint 12'],
  ];

  it.each(cases)('%s says what happened in words', (type, data, line) => {
    expect(summaryOf({ type, data })).toBe(line);
  });

  it('keeps a legacy payment.recorded (JSON numbers) readable', () => {
    const data = {
      payment: {
        id: 4000008,
        amount: 18,
        currency: 'USD',
        channel: 'IN_STORE',
        deviceTag: 'DTSTBBB',
        financeOrderId: 4000004,
      },
      financeOrder: { id: 4000004, remainingBalance: 198, fullyPaid: false },
    };
    expect(summaryOf({ type: 'PAYMENT_RECORDED', data })).toBe(
      '18 USD in store for device DTSTBBB; 198 USD still to pay',
    );
  });

  it('says nothing of its own for a type it does not know, rather than failing', () => {
    expect(summaryOf({ type: 'A_TYPE_NOT_YET_KNOWN', data: { anything: 1 } })).toBe('');
    expect(summaryOf({ type: 'DEVICE_LOCKED', data: null })).toBe('Device locked: payment overdue');
  });
});
