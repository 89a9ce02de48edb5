// The explicit mappers from each route's operation data to its frozen legacy body, field by field,
// with the JSON types of interface.md section 2: integer ids where it says integer, string ids where
// it says string, JSON numbers for amounts typed number, decimal strings where it says string.
// Key order follows the contract's tables, so bodies are byte-stable.
import type {
  CreateAccessTokenMutation,
  CreatePaymentNotificationMutation,
  ListClerksQuery,
  ListMerchantsQuery,
  ListTransactionsQuery,
  LookupCartQuery,
  LookupCustomerQuery,
  RecordCustomerPaymentMutation,
  SecureStatus,
} from '../__generated__/operations.js';
import { AppError } from '../errors.js';
import { legacyFinanceOrder } from '../modules/financeOrders/legacy.js';
import { legacyTransaction } from '../modules/transactions/legacy.js';
import { decimalToJsonNumber } from '../money.js';

/** An id the contract types as integer. Ids come from int8 sequences far below 2^53. */
const integer = (id: string): number => Number(id);
/** An amount the contract types as number, from the exact decimal string. */
const number = (decimal: string): number => decimalToJsonNumber(decimal);

/** Where a page of a list ordered by id ends: a full page may have a next one, which starts after its last id. */
function pageById<Item extends { id: string }>(items: readonly Item[], pageSize: number) {
  return { hasNextPage: items.length === pageSize, endCursor: items.at(-1)?.id };
}

// interface.md 4.3: { "valid": true, "clerks": [ items of 2.3 ] }; every field a string, id included.
export const listClerksBody: LegacyListBody<ListClerksQuery> = {
  head: '{"valid":true,"clerks":[',
  next: (data, pageSize) => pageById(data.clerks, pageSize),
  items: (data, write) => {
    for (const clerk of data.clerks) {
      write({
        id: clerk.id,
        personUuid: clerk.personUuid,
        name: clerk.name,
        phoneNumber: clerk.phoneNumber,
        email: clerk.email,
      });
    }
  },
  tail: ']}',
};

// interface.md 4.4 and 2.4: string id; street2 string or null; postalCode may be empty.
export const listMerchantsBody: LegacyListBody<ListMerchantsQuery> = {
  head: '{"valid":true,"merchants":[',
  next: (data, pageSize) => pageById(data.merchants, pageSize),
  items: (data, write) => {
    for (const merchant of data.merchants) {
      write({
        id: merchant.id,
        name: merchant.name,
        address: {
          street: merchant.address.street,
          street2: merchant.address.street2,
          city: merchant.address.city,
          state: merchant.address.state,
          postalCode: merchant.address.postalCode,
          country: merchant.address.country,
        },
        phoneNumber: merchant.phoneNumber,
      });
    }
  },
  tail: ']}',
};

// decisions.md 5: the legacy's words for the graph's secure status; the graph itself has only the enum.
const LEGACY_SECURE_STATUS: Readonly<Record<SecureStatus, string>> = {
  ACTIVE_AND_SECURED: 'Device Active And Secured',
  LOCKED: 'Device Locked',
  RELEASED: 'Device Released',
};

export function lookupCustomerBody(data: LookupCustomerQuery, locator: string, withDescription: boolean) {
  const customer = data.customer;
  if (!customer) {
    throw new AppError(
      'RESOURCE_NOT_FOUND',
      `no customer matches the customerLocator ${JSON.stringify(locator.slice(0, 64))}`,
    );
  }
  const order = customer.financeOrder;
  const device = order?.device ?? null;
  // interface.md 2.5. Values the service does not know (a device never seen, no SIM on record) are
  // null rather than invented.
  return {
    valid: true,
    customer: { id: integer(customer.id) },
    device: device && {
      validThrough: device.validThrough,
      family: { id: integer(device.family.id), name: device.family.name },
      imei: device.imei,
      model: { id: integer(device.model.id), makeModel: device.model.makeModel, name: device.model.name },
      simNumber: device.simNumber,
      lastSeen: device.lastSeen,
      secureStatus: device.secureStatus && LEGACY_SECURE_STATUS[device.secureStatus],
      ...(withDescription ? { description: device.description ?? null } : {}),
    },
    financeOrder: order && legacyFinanceOrder(order),
    // amount: decimal string with the currency's places; timestamp: a string holding Unix seconds.
    paymentHistory: (order?.payments ?? []).map((payment) => ({
      amount: payment.amount,
      currency: payment.currency,
      timestamp: String(payment.time),
    })),
    paymentOptions: (order?.paymentOptions ?? []).map((option) => ({
      amount: number(option.amount),
      currency: option.currency,
      type: option.type.toLowerCase(),
    })),
  };
}

export function lookupCartBody(data: LookupCartQuery, cartTag: string) {
  const cart = data.cart;
  if (!cart)
    throw new AppError('RESOURCE_NOT_FOUND', `no cart with cartTag ${JSON.stringify(cartTag.slice(0, 64))} was found`);
  const customer = cart.customer;
  // interface.md 2.6: customer fields only as requested (all strings); amounts as decimal strings
  // except pricePreTax, a number; months as integer text.
  return {
    valid: true,
    customer: {
      ...(customer.id !== undefined ? { id: customer.id } : {}),
      ...(customer.name !== undefined ? { name: customer.name } : {}),
      ...(customer.phoneNumber !== undefined ? { phoneNumber: customer.phoneNumber } : {}),
      ...(customer.email !== undefined ? { email: customer.email } : {}),
      ...(customer.address !== undefined ? { address: customer.address } : {}),
      ...(customer.nationalId !== undefined ? { nationalId: customer.nationalId } : {}),
    },
    cart: {
      cartTag: cart.cartTag,
      purchaseAmount: cart.purchaseAmount,
      financeAmount: cart.financeAmount,
      downPayment: cart.downPayment,
      pricePreTax: number(cart.pricePreTax),
      monthlyCost: cart.monthlyCost,
      weeklyCost: cart.weeklyCost,
      months: String(cart.months),
      currency: cart.currency,
    },
    device: {
      family: cart.deviceModel.family.name,
      makeModel: cart.deviceModel.makeModel,
      ...(cart.deviceDescription !== undefined ? { description: cart.deviceDescription } : {}),
    },
  };
}

/**
 * A legacy body that is one list, written page by page: `head`, the pages' items mapped and joined
 * by commas, `tail`; the bytes are those of JSON.stringify of the whole body.
 */
export interface LegacyListBody<TData> {
  head: string;
  /** Where the next page starts, read before the page is mapped; `pageSize` is the page the shim asked for. */
  next: (data: TData, pageSize: number) => { hasNextPage: boolean; endCursor: string | null | undefined };
  /** One page's items, each handed to `write` as it is mapped (so none outlives its writing). */
  items: (data: TData, write: (item: unknown) => void) => void;
  tail: string;
}

// interface.md 4.7: { "valid": true, "transactions": [ items of 2.7 ] }.
export const listTransactionsBody: LegacyListBody<ListTransactionsQuery> = {
  head: '{"valid":true,"transactions":[',
  next: (data) => data.transactions.pageInfo,
  items: (data, write) => {
    for (const node of data.transactions.nodes) write(legacyTransaction(node));
  },
  tail: ']}',
};

export function recordCustomerPaymentBody(data: RecordCustomerPaymentMutation) {
  const receipt = data.recordInStorePayment;
  // interface.md 2.8; nextPayment is null once the order is fully paid (decisions.md 5).
  return {
    valid: true,
    payment: {
      id: integer(receipt.payment.id),
      time: receipt.time,
      deviceTag: receipt.deviceTag,
      remainingBalance: number(receipt.remainingBalance),
      currency: receipt.currency,
      nextPayment: receipt.nextPayment,
      fullyPaid: receipt.fullyPaid,
    },
  };
}

export function accessTokenBody(data: CreateAccessTokenMutation) {
  const token = data.createAccessToken;
  return { data: { access_token: token.accessToken, token_type: token.tokenType, expires_in: token.expiresIn } };
}

export function paymentNotificationBody(data: CreatePaymentNotificationMutation) {
  const result = data.createPaymentNotification;
  // interface.md 2.2: data.message, and the further fields this service's integrations add.
  return {
    data: {
      message: result.message,
      paymentId: integer(result.receipt.payment.id),
      remainingBalance: number(result.receipt.remainingBalance),
      currency: result.receipt.currency,
      fullyPaid: result.receipt.fullyPaid,
    },
  };
}
