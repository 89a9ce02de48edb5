// Each route's frozen legacy body, put together from the contract's pieces (src/contract/: the JSON
// types of docs/legacy-contract.md#json-types, in the contract's key order, so bodies are byte-stable). What is
// the door's own stays here: a missing customer or cart answered as not found, and the lists written
// page by page.
import type {
  CreateAccessTokenMutation,
  CreatePaymentNotificationMutation,
  ListClerksQuery,
  ListMerchantsQuery,
  ListTransactionsQuery,
  LookupCartQuery,
  LookupCustomerQuery,
  RecordCustomerPaymentMutation,
  RepaymentOptionsQuery,
  ReverseVendorPaymentMutation,
} from '../__generated__/operations.js';
import { legacyCart, legacyCartCustomer, legacyCartDevice } from '../contract/cart.js';
import { legacyCustomerDevice, legacyPaymentHistory, legacyPaymentOptions } from '../contract/customer.js';
import { legacyFinanceOrder } from '../contract/financeOrder.js';
import { integer } from '../contract/json.js';
import { legacyPaymentNotification, legacyPaymentReceipt, legacyPaymentReversal } from '../contract/payment.js';
import { repaymentOptionsData } from '../contract/repayment.js';
import { legacyClerk, legacyMerchant } from '../contract/store.js';
import { legacyTransaction } from '../contract/transaction.js';
import { AppError } from '../kernel/errors.js';
import { CART_TAG_MAX_LENGTH } from '../modules/carts/rows.js';
import { LOCATOR_MAX_LENGTH } from '../modules/customers/locate.js';

/** Where a page of a list ordered by id ends: a full page may have a next one, which starts after its last id. */
function pageById<Item extends { id: string }>(items: readonly Item[], pageSize: number) {
  return { hasNextPage: items.length === pageSize, endCursor: items.at(-1)?.id };
}

// docs/legacy-contract.md#list-clerks: { "valid": true, "clerks": [ clerk items ] }.
export const listClerksBody: LegacyListBody<ListClerksQuery> = {
  head: '{"valid":true,"clerks":[',
  next: (data, pageSize) => pageById(data.clerks, pageSize),
  items: (data, write) => {
    for (const clerk of data.clerks) write(legacyClerk(clerk));
  },
  tail: ']}',
};

// docs/legacy-contract.md#list-merchants: { "valid": true, "merchants": [ merchant items ] }.
export const listMerchantsBody: LegacyListBody<ListMerchantsQuery> = {
  head: '{"valid":true,"merchants":[',
  next: (data, pageSize) => pageById(data.merchants, pageSize),
  items: (data, write) => {
    for (const merchant of data.merchants) write(legacyMerchant(merchant));
  },
  tail: ']}',
};

export function lookupCustomerBody(data: LookupCustomerQuery, locator: string) {
  const customer = data.customer;
  if (!customer) {
    throw new AppError(
      'RESOURCE_NOT_FOUND',
      `no customer matches the customerLocator ${JSON.stringify(locator.slice(0, LOCATOR_MAX_LENGTH))}`,
    );
  }
  const order = customer.financeOrder;
  const device = order?.device ?? null;
  // docs/legacy-contract.md#lookup-customer.
  return {
    valid: true,
    customer: { id: integer(customer.id) },
    device: device && legacyCustomerDevice(device),
    financeOrder: order && legacyFinanceOrder(order),
    paymentHistory: legacyPaymentHistory(order?.payments ?? []),
    paymentOptions: legacyPaymentOptions(order?.paymentOptions ?? []),
  };
}

export function lookupCartBody(data: LookupCartQuery, cartTag: string) {
  const cart = data.cart;
  if (!cart)
    throw new AppError(
      'RESOURCE_NOT_FOUND',
      `no cart with cartTag ${JSON.stringify(cartTag.slice(0, CART_TAG_MAX_LENGTH))} was found`,
    );
  // docs/legacy-contract.md#lookup-cart.
  return {
    valid: true,
    customer: legacyCartCustomer(cart.customer),
    cart: legacyCart(cart),
    device: legacyCartDevice(cart),
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

// docs/legacy-contract.md#list-transactions: { "valid": true, "transactions": [ transaction items ] }.
export const listTransactionsBody: LegacyListBody<ListTransactionsQuery> = {
  head: '{"valid":true,"transactions":[',
  next: (data) => data.transactions.pageInfo,
  items: (data, write) => {
    for (const node of data.transactions.nodes) write(legacyTransaction(node));
  },
  tail: ']}',
};

export function recordCustomerPaymentBody(data: RecordCustomerPaymentMutation) {
  // docs/legacy-contract.md#record-customer-payment.
  return { valid: true, payment: legacyPaymentReceipt(data.recordInStorePayment) };
}

export function accessTokenBody(data: CreateAccessTokenMutation) {
  const token = data.createAccessToken;
  return { data: { access_token: token.accessToken, token_type: token.tokenType, expires_in: token.expiresIn } };
}

/**
 * The notification's answer. The field is nullable (a limit a resolver applies nulls its own alias:
 * decisions.md 36), but null only beside its error, which the handler answers before any mapper runs.
 */
export function acceptedNotification(data: CreatePaymentNotificationMutation) {
  const result = data.createPaymentNotification;
  if (!result) throw new Error('createPaymentNotification answered null without an error');
  return result;
}

export function paymentNotificationBody(data: CreatePaymentNotificationMutation) {
  const result = acceptedNotification(data);
  // docs/legacy-contract.md#notification.
  return { data: legacyPaymentNotification(result.message, result.receipt) };
}

export function paymentReversalBody(data: ReverseVendorPaymentMutation) {
  // docs/integrating.md#the-reversal-door-a-vendor-takes-a-payment-back: the payments interface's { data } envelope.
  return { data: legacyPaymentReversal(data.reverseVendorPayment) };
}

export function repaymentOptionsBody(data: RepaymentOptionsQuery) {
  // decisions.md 16: the payments interface's { data } envelope.
  return { data: repaymentOptionsData(data.deviceRepayment) };
}
