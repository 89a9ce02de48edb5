// The OpenAPI document's `webhooks`: one entry per event type, what a STANDARD endpoint is posted (the
// envelope, the type's data, the signing headers as the worker sends them: modules/webhooks/signing.ts),
// and one for a PAYJOY_V1 endpoint's bare transaction.created. Each type's data is in one dialect,
// legacy or graph (docs/decisions.md 41), said in its entry and typed member by member, so a receiver
// can tell; the test receiver (test/support/receiver.ts) validates every body posted in the suites
// against these entries. The map is keyed by the log's types: a type without its entry fails the type check.
import { DEVICE_COMMAND_TYPES } from '../modules/deviceCommands/rows.js';
import type { LockReason, LockState } from '../modules/deviceDoor/checkin.js';
import type { EventTypeName } from '../modules/events/rows.js';
import {
  bool,
  decimalString,
  int,
  legacyFinanceOrder,
  nullable,
  obj,
  ref,
  type Schema,
  str,
} from './openapiSchemas.js';

export const WEBHOOKS_TAG = 'Webhooks';

export type PayloadDialect = 'legacy' | 'graph';

const DIALECTS: Record<PayloadDialect, string> = {
  legacy:
    "Dialect: legacy (docs/legacy-contract.md, JSON types): amounts are JSON numbers, ids JSON integers, times Unix seconds, exactly as the legacy contract's bodies.",
  graph:
    "Dialect: graph (docs/versioning.md, Decimal, Timestamp): amounts are decimal strings with the currency's places, ids strings, times Unix seconds, enum values as the graph spells them.",
};

const idString = (description?: string): Schema => ({
  type: 'string',
  pattern: '^[0-9]+$',
  ...(description ? { description } : {}),
});
const amount = (description: string) => decimalString(`${description}: a decimal string with the currency's places.`);
const seconds = (description: string) => int(`${description}, in Unix seconds.`);
const device = obj({ tag: str('The device tag.'), imei: nullable(str('Null when not on record.')) });

/** What every device.* event of the lock timeline carries (docs/decisions.md 18), and its own members. */
const timelineData = (own: Record<string, Schema> = {}) =>
  obj({
    device,
    financeOrder: obj({
      id: idString(),
      remainingBalance: amount('Still to pay'),
      currency: str(),
      lockAt: nullable(seconds('When the device locks unless a payment arrives; null once paid off')),
    }),
    ...own,
  });

const LOCK_STATES = ['UNLOCKED', 'LOCKED', 'RELEASED'] as const satisfies readonly LockState[];
const LOCK_REASONS = ['PAYMENT_OVERDUE', 'SIM_MISMATCH', 'LOCK_COMMAND'] as const satisfies readonly LockReason[];

interface EventDoc {
  dialect: PayloadDialect;
  summary: string;
  description: string;
  /** The data's schema: a component of its own (named `${Name}Data`), or a reference to a shared one. */
  data: Schema;
}

const EVENT_DOCS: Record<EventTypeName, EventDoc> = {
  'payment.recorded': {
    dialect: 'graph',
    summary: 'A payment was recorded',
    description:
      "In store or through a vendor (a replay of an Idempotency-Key or vendor reference writes none): the payment and its order as they stood right after it, the values of the graph's PaymentReceipt. Written in the graph dialect since docs/decisions.md 41; an event written before holds the legacy types until purged.",
    data: obj({
      payment: obj({
        id: idString(),
        time: seconds('When it was recorded'),
        amount: amount('The amount paid'),
        currency: str(),
        channel: { enum: ['IN_STORE', 'VENDOR'] },
        deviceTag: str(),
        financeOrderId: idString(),
      }),
      financeOrder: obj({
        id: idString(),
        remainingBalance: amount('Still to pay after it'),
        nextPayment: nullable(seconds('When the device locks unless a payment arrives; null once fully paid')),
        fullyPaid: bool,
      }),
    }),
  },
  'transaction.created': {
    dialect: 'legacy',
    summary: 'A partner transaction was written',
    description:
      'Finance (a cart financed), cash and commission (an in-store payment), adjustment: exactly the item list-transactions returns for it, byte for byte. A PAYJOY_V1 endpoint is posted this object bare (see payjoy_v1.transaction.created).',
    data: {
      oneOf: [
        ref('FinanceTransaction'),
        ref('CashTransaction'),
        ref('CommissionTransaction'),
        ref('AdjustmentTransaction'),
      ],
    },
  },
  'finance_order.created': {
    dialect: 'legacy',
    summary: 'A cart was financed',
    description: "The new finance order as lookup-customer's financeOrder object, at that moment.",
    data: ref('FinanceOrderEventData'),
  },
  'finance_order.paid_off': {
    dialect: 'legacy',
    summary: "A payment brought an order's balance to 0",
    description: "The order as lookup-customer's financeOrder object, its remainingBalance 0.",
    data: ref('FinanceOrderEventData'),
  },
  'webhook.test': {
    dialect: 'graph',
    summary: 'A test message',
    description:
      'Queued by sendTestWebhook for one endpoint and delivered to it alone (in its format), never to subscriptions; an endpoint cannot subscribe to it.',
    data: obj({ test: { const: true }, endpointId: idString('The endpoint tested.') }),
  },
  'device.lock_upcoming': {
    dialect: 'graph',
    summary: "A device's lock is near",
    description: "Once for each of the partner's lockReminderDays, that many days before the order's lockAt.",
    data: timelineData({
      daysLeft: { type: 'integer', minimum: 1 },
      lockAt: seconds('When the device locks'),
      minimumPaymentAmount: amount('The least amount that moves lockAt by a day, capped at the balance'),
    }),
  },
  'device.locked': {
    dialect: 'graph',
    summary: 'A device locked',
    description: 'Its order reached lockAt unpaid.',
    data: timelineData({ reason: { const: 'PAYMENT_OVERDUE' } }),
  },
  'device.unlocked': {
    dialect: 'graph',
    summary: 'A device unlocked',
    description:
      "A payment (or a settings change, or a sandbox clock reset) moved a locked order's lockAt into the future; or paid a locked order off inside its reversal window, lockAt then its releaseAt (docs/decisions.md 44).",
    data: timelineData(),
  },
  'device.released': {
    dialect: 'graph',
    summary: 'A device was released for good',
    description:
      "The payment that paid the order off, after its finance_order.paid_off, when the partner's reversalWindowHours is 0; else the payoff's reversal window closing, at the order's releaseAt (docs/decisions.md 44). lockAt is null.",
    data: timelineData(),
  },
  'payment.reversed': {
    dialect: 'graph',
    summary: 'A payment was reversed',
    description:
      "Inside its reversal window, by its vendor, its partner (in store) or an operator (docs/decisions.md 44): the reversal, the payment it undid, and the order as it stood right after it (a replay writes none). An in-store payment's reversal also writes its transactions (transaction.created).",
    data: obj({
      reversal: obj({
        id: idString(),
        time: seconds("When it was reversed, at the partner's time"),
        reason: str('Why, as the caller said it.'),
        reversedBy: { enum: ['VENDOR', 'PARTNER', 'OPERATOR'] },
      }),
      payment: obj({
        id: idString(),
        time: seconds('When it was received'),
        amount: amount('The amount paid, now taken back'),
        currency: str(),
        channel: { enum: ['IN_STORE', 'VENDOR'] },
        vendorReference: nullable(str("Through a vendor: the notification's reference.")),
      }),
      financeOrder: obj({
        id: idString(),
        status: { enum: ['ACTIVE', 'LOCKED', 'PAID_OFF'] },
        remainingBalance: amount('Still to pay after the reversal'),
        currency: str(),
        lockAt: nullable(seconds('When the device locks unless a payment arrives; null if still paid off')),
      }),
      device,
    }),
  },
  'finance_order.written_off': {
    dialect: 'graph',
    summary: 'An order was written off',
    description:
      'By an operator (closeFinanceOrder, reason WRITE_OFF; docs/decisions.md 44): the balance cleared by an adjustment, the device locked for good.',
    data: ref('FinanceOrderClosedData'),
  },
  'finance_order.returned': {
    dialect: 'graph',
    summary: "An order was closed on its device's return",
    description:
      'By an operator (closeFinanceOrder, reason DEVICE_RETURNED; docs/decisions.md 44): the balance cleared by an adjustment, the device back in stock, its credential ended.',
    data: ref('FinanceOrderClosedData'),
  },
  'report_run.succeeded': {
    dialect: 'graph',
    summary: "A report run's file is ready",
    description:
      'Written by the worker that ran it (docs/decisions.md 45): the run as the graph shows it; its file is fetched from ReportRun.downloadUrl or with the partner key.',
    data: ref('ReportRunEventData'),
  },
  'report_run.failed': {
    dialect: 'graph',
    summary: 'A report run failed',
    description:
      'Written by the worker that ran it (docs/decisions.md 45): the run and failureReason; it made no file.',
    data: ref('ReportRunEventData'),
  },
  'device.command_acknowledged': {
    dialect: 'graph',
    summary: 'A device acknowledged a command',
    description: 'At a check-in, one event per command acknowledged (docs/decisions.md 20).',
    data: obj({
      device,
      command: obj({
        id: idString(),
        type: { enum: [...DEVICE_COMMAND_TYPES] },
        hours: nullable(int('UNLOCK_FOR_HOURS: the hours.')),
        message: nullable(str('SHOW_MESSAGE: the text.')),
        createdAt: seconds('When it was sent'),
        deliveredAt: nullable(seconds('When a check-in first carried it')),
        acknowledgedAt: seconds('When the device acknowledged it'),
      }),
    }),
  },
  'device.checked_in': {
    dialect: 'graph',
    summary: 'A device checked in',
    description:
      'At the device door, at most one event per device per hour (docs/decisions.md 19): the state it was answered.',
    data: obj({
      device,
      lockState: { enum: [...LOCK_STATES] },
      reason: { enum: [...LOCK_REASONS, null] },
      appVersion: str(),
      simMismatch: bool,
    }),
  },
};

/** payment.recorded -> PaymentRecorded */
const pascal = (type: string) =>
  type
    .split(/[._]/)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

/** The components of the types' data (those not referring to a shared component) and envelopes. */
export const webhookSchemas: Record<string, Schema> = {
  FinanceOrderEventData: legacyFinanceOrder,
  // finance_order.written_off and finance_order.returned (docs/decisions.md 44).
  FinanceOrderClosedData: obj({
    financeOrder: obj({
      id: idString(),
      status: { enum: ['WRITTEN_OFF', 'RETURNED'] },
      closedAt: seconds("When it was closed, at the partner's time"),
      closedReason: { enum: ['WRITE_OFF', 'DEVICE_RETURNED'] },
      note: str("The operator's note."),
      clearedAmount: amount('The balance the close cleared'),
      currency: str(),
    }),
    adjustment: obj({ id: idString('The adjustment that cleared the balance.') }),
    device,
  }),
  // report_run.succeeded and report_run.failed (docs/decisions.md 45).
  ReportRunEventData: obj({
    reportRun: obj({
      id: idString(),
      type: { enum: ['TRANSACTIONS', 'AGEING', 'PORTFOLIO_HISTORY'] },
      state: { enum: ['SUCCEEDED', 'FAILED'] },
      start: nullable(seconds("The window's start, inclusive")),
      end: nullable(seconds("The window's end, exclusive")),
      asOf: nullable(seconds('The moment an AGEING run is as of')),
      rowCount: nullable(int('The data rows of the file; null when it failed.')),
      byteSize: nullable(int("The file's bytes; null when it failed.")),
      failureReason: nullable(str("Why it failed: the error's code and message; null when it succeeded.")),
    }),
  }),
  ...Object.fromEntries(
    Object.entries(EVENT_DOCS).flatMap(([type, doc]) => {
      const name = pascal(type);
      const data = '$ref' in doc.data ? doc.data : ref(`${name}Data`);
      const envelope = obj({
        type: { const: type },
        timestamp: { type: 'string', format: 'date-time', description: 'When the event happened (ISO 8601, UTC).' },
        data,
      });
      return [
        ...('$ref' in doc.data ? [] : [[`${name}Data`, doc.data]]),
        [`${name}Event`, { ...envelope, description: `The body a STANDARD endpoint is posted for ${type}.` }],
      ];
    }),
  ),
};

const header = (name: string, description: string, schema: Schema) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema,
});

/** The headers of a STANDARD delivery (Standard Webhooks). */
const STANDARD_HEADERS = [
  header('webhook-id', "The event's id: the same on every retry and redelivery; deduplicate by it.", {
    type: 'string',
    pattern: '^evt_[0-9A-Za-z]{26}$',
  }),
  header('webhook-timestamp', 'Unix seconds of the attempt.', { type: 'string', pattern: '^[0-9]+$' }),
  header(
    'webhook-signature',
    'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>" keyed with the base64-decoded secret after whsec_>; during 24 h after a rotation, the old secret\'s too, space-separated.',
    { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
  ),
];

const RESPONSES = {
  '2XX': { description: 'Delivered: any 2xx answer within 10 s (the first 1 kB of it is kept with the attempt).' },
  '4XX': {
    description:
      'Not delivered, as any answer other than 2xx, a redirect, or none within 10 s: retried for 3 days (docs/integrating.md, Webhooks).',
  },
};

/** The `webhooks` of the document: every event type's STANDARD post, then PAYJOY_V1's transaction.created. */
export function buildWebhooks() {
  const standard = Object.entries(EVENT_DOCS).map(([type, doc]) => [
    type,
    {
      post: {
        operationId: `${pascal(type)[0]!.toLowerCase()}${pascal(type).slice(1)}Webhook`,
        tags: [WEBHOOKS_TAG],
        summary: doc.summary,
        description: `${doc.description} ${DIALECTS[doc.dialect]}`,
        'x-payload-dialect': doc.dialect,
        security: [],
        parameters: STANDARD_HEADERS,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref(`${pascal(type)}Event`) } },
        },
        responses: RESPONSES,
      },
    },
  ]);
  const payjoy = {
    post: {
      operationId: 'payjoyV1TransactionCreatedWebhook',
      tags: [WEBHOOKS_TAG],
      summary: 'A partner transaction was written (PAYJOY_V1 endpoint)',
      description: `What a PAYJOY_V1 endpoint (legacy receivers; transaction.created only) is posted: the bare transaction object, no envelope, in the legacy dialect; or, for sendTestWebhook, the bare data of webhook.test. ${DIALECTS.legacy}`,
      'x-payload-dialect': 'legacy',
      security: [],
      parameters: [
        header(
          'X-PayJoy-Signature',
          'base64(HMAC-SHA256(raw body)) keyed with the secret string as shown (whsec_..., its UTF-8 bytes); the current secret only.',
          { type: 'string', pattern: '^[A-Za-z0-9+/]+={0,2}$' },
        ),
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { anyOf: [ref('TransactionCreatedData'), ref('WebhookTestData')] } } },
      },
      responses: RESPONSES,
    },
  };
  return Object.fromEntries([...standard, ['payjoy_v1.transaction.created', payjoy]]);
}

export const webhooksTag = {
  name: WEBHOOKS_TAG,
  description:
    "What the service posts to a partner's webhook endpoints: one entry per event type (the STANDARD format's envelope, the type's data, the signing headers), and PAYJOY_V1's bare transaction.created. Each type's data is in one dialect, legacy or graph, fixed with the type and named in its entry (x-payload-dialect); docs/integrating.md (Events, Webhooks) and docs/decisions.md 41.",
};
