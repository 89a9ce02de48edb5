// The columns each field of a linked type reads: what lets a listing select, of each row it joins
// (selection.ts, queries.ts), only the columns the request's fields read. Each map names every field
// of its type (its generated resolver map's keys: a field added to the SDL fails typecheck until it
// is named here), and test/graph/listing-columns.test.ts checks each field's answer against the whole row's.
import type {
  AdjustmentResolvers,
  ClerkResolvers,
  DeviceResolvers,
  FinanceOrderResolvers,
  MerchantResolvers,
  PaymentResolvers,
} from '../../__generated__/resolvers.js';
import type { ClerkRow } from '../clerks/rows.js';
import type { DeviceRow } from '../devices/rows.js';
import type { FinanceOrderRow } from '../financeOrders/rows.js';
import { ORDER_TERMS_COLUMNS } from '../financeOrders/terms.js';
import type { MerchantRow } from '../merchants/rows.js';
import type { PaymentRow } from '../payments/rows.js';
import type { AdjustmentRow, TransactionLink } from './rows.js';

/** Every field of a type, with the columns of its row that the field's resolver (and what it loads by key) reads. */
type FieldColumns<TypeResolvers, Row> = {
  readonly [Field in keyof TypeResolvers as Field extends `__${string}` ? never : Field]-?: readonly (keyof Row &
    string)[];
};

const MERCHANT: FieldColumns<MerchantResolvers, MerchantRow> = {
  id: ['id'],
  name: ['name'],
  // Address is the merchant row itself (merchants/resolvers.ts).
  address: ['street', 'street2', 'city', 'state', 'postal_code', 'country'],
  phoneNumber: ['phone_number'],
};

const CLERK: FieldColumns<ClerkResolvers, ClerkRow> = {
  id: ['id'],
  personUuid: ['person_uuid'],
  name: ['name'],
  phoneNumber: ['phone_number'],
  email: ['email'],
};

// A standing is taken at the partner's time, under its settings (decisions.md 15): the partner too.
const STANDING = [...ORDER_TERMS_COLUMNS, 'partner_id'] as const;

const FINANCE_ORDER: FieldColumns<FinanceOrderResolvers, FinanceOrderRow> = {
  id: ['id'],
  customer: ['partner_id', 'customer_id'],
  device: ['partner_id', 'device_id'],
  merchant: ['partner_id', 'merchant_id'],
  salesClerk: ['partner_id', 'clerk_id'],
  cart: ['partner_id', 'cart_id'],
  currency: ['currency'],
  purchaseAmount: ['currency', 'purchase_minor'],
  downPayment: ['currency', 'down_payment_minor'],
  financeAmount: ['currency', 'purchase_minor', 'down_payment_minor'],
  pricePreTax: ['currency', 'price_pre_tax_minor'],
  monthlyCost: ['currency', 'monthly_cost_minor'],
  weeklyCost: ['currency', 'weekly_cost_minor'],
  months: ['months'],
  repayableTotal: STANDING,
  totalPaid: ['currency', 'total_paid_minor'],
  remainingBalance: STANDING,
  time: ['ordered_at'],
  paidThrough: STANDING,
  lockAt: STANDING,
  nextPayment: STANDING,
  fullyPaid: STANDING,
  secureStatus: STANDING,
  status: STANDING,
  releaseAt: STANDING,
  closedAt: ['closed_at'],
  closedReason: ['closed_reason'],
  closedNote: ['closed_note'],
  payments: ['partner_id', 'id'],
  paymentReferences: ['partner_id', 'id'],
  paymentOptions: ORDER_TERMS_COLUMNS,
  schedule: STANDING,
  // The order's terms, and its partner's settings (loaded by the partner's id).
  repayment: ['partner_id', ...ORDER_TERMS_COLUMNS],
};

const DEVICE: FieldColumns<DeviceResolvers, DeviceRow> = {
  id: ['id'],
  tag: ['tag'],
  imei: ['imei'],
  simNumber: ['sim_number'],
  phoneNumber: ['phone_number'],
  description: ['description'],
  lastSeen: ['last_seen_at'],
  lastCheckin: ['last_checkin_at', 'last_sim_number', 'last_app_version'],
  // The model's family is loaded by its id (devices/resolvers.ts).
  model: ['model_id', 'family_id', 'model_make_model', 'model_name'],
  family: ['family_id', 'family_name'],
  customer: ['partner_id', 'customer_id'],
  // The device's current order, loaded by the device's key.
  financeOrder: ['partner_id', 'id'],
  validThrough: ['partner_id', 'id'],
  secureStatus: ['partner_id', 'id'],
  // The last check-in, else the device's first order, loaded by the device's key.
  silentSince: ['partner_id', 'id', 'last_checkin_at'],
  // Its commands, read by the device's key (deviceCommands/resolvers.ts).
  commands: ['partner_id', 'id'],
  // Its events, read from its partner's log by its tag (events/resolvers.ts).
  events: ['partner_id', 'tag'],
};

const PAYMENT: FieldColumns<PaymentResolvers, PaymentRow> = {
  id: ['id'],
  financeOrder: ['partner_id', 'finance_order_id'],
  amount: ['amount_minor', 'currency'],
  currency: ['currency'],
  time: ['received_at'],
  channel: ['channel'],
  merchant: ['partner_id', 'merchant_id'],
  salesClerk: ['partner_id', 'clerk_id'],
  paymentVendor: ['vendor_id'],
  vendorReference: ['vendor_reference'],
  reversibleUntil: ['reversible_until'],
  // Read by the payment's key (payments/resolvers.ts).
  reversal: ['partner_id', 'id'],
};

const ADJUSTMENT: FieldColumns<AdjustmentResolvers, AdjustmentRow> = {
  id: ['id'],
  kind: ['kind'],
  amount: ['amount_minor', 'currency'],
  currency: ['currency'],
  notes: ['notes'],
  merchant: ['partner_id', 'merchant_id'],
  financeOrder: ['partner_id', 'finance_order_id'],
  time: ['created_at'],
};

/** Each link's field map, by link (the device's columns as a DeviceRow names them, catalogue included). */
export const LINK_FIELD_COLUMNS: Readonly<Record<TransactionLink, Readonly<Record<string, readonly string[]>>>> = {
  merchant: MERCHANT,
  clerk: CLERK,
  order: FINANCE_ORDER,
  device: DEVICE,
  payment: PAYMENT,
  adjustment: ADJUSTMENT,
};
