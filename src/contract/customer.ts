// lookup-customer's pieces (docs/legacy-contract.md#lookup-customer): the device with the legacy's status
// words, the order's payment history and its payment options. Values the service does not know (a
// device never seen, no SIM on record) are null rather than invented.
import type { LookupCustomerQuery, SecureStatus } from '../__generated__/operations.js';
import { integer, named, number } from './json.js';

type LookedUpOrder = NonNullable<NonNullable<LookupCustomerQuery['customer']>['financeOrder']>;

// decisions.md 5: the legacy's words for the graph's secure status; the graph itself has only the enum.
const LEGACY_SECURE_STATUS: Readonly<Record<SecureStatus, string>> = {
  ACTIVE_AND_SECURED: 'Device Active And Secured',
  LOCKED: 'Device Locked',
  RELEASED: 'Device Released',
};

/**
 * The order's device; `description` only when the operation selected it (lookup-customer's
 * `fields=device.description`, decided once in its variables), then null when unknown.
 */
export function legacyCustomerDevice(device: LookedUpOrder['device']) {
  return {
    validThrough: device.validThrough,
    family: named(device.family),
    imei: device.imei,
    model: { id: integer(device.model.id), makeModel: device.model.makeModel, name: device.model.name },
    simNumber: device.simNumber,
    lastSeen: device.lastSeen,
    secureStatus: device.secureStatus && LEGACY_SECURE_STATUS[device.secureStatus],
    ...(device.description !== undefined ? { description: device.description } : {}),
  };
}

/** amount: decimal string with the currency's places; timestamp: a string holding Unix seconds. */
export function legacyPaymentHistory(payments: LookedUpOrder['payments']) {
  return payments.map((payment) => ({
    amount: payment.amount,
    currency: payment.currency,
    timestamp: String(payment.time),
  }));
}

export function legacyPaymentOptions(options: LookedUpOrder['paymentOptions']) {
  return options.map((option) => ({
    amount: number(option.amount),
    currency: option.currency,
    type: option.type.toLowerCase(),
  }));
}
