// THE legacy route table. Each route: its method and path, which interface it belongs to, where its
// credential is, its declared parameters, the handwritten GraphQL operation it runs, how the request
// becomes the operation's variables, and the explicit mapper (rest/mappers.ts) from the operation's
// data to the frozen legacy body. The graph can grow; these bodies do not.
import { readFileSync } from 'node:fs';
import type {
  CreateAccessTokenMutation,
  CreatePaymentNotificationMutation,
  ListClerksQuery,
  ListMerchantsQuery,
  ListTransactionsQuery,
  LookupCartQuery,
  LookupCustomerQuery,
  RecordCustomerPaymentMutation,
} from '../__generated__/operations.js';
import { AppError, invalidRequestBody } from '../errors.js';
import {
  accessTokenBody,
  listClerksBody,
  listMerchantsBody,
  listTransactionsBody,
  lookupCartBody,
  lookupCustomerBody,
  paymentNotificationBody,
  recordCustomerPaymentBody,
  type LegacyListBody,
} from './mappers.js';
import { parseParam, type ParamSpec } from './params.js';
import type { Surface } from '../http/errorResponses.js';

/** Where a route's credential is presented. */
export type CredentialSource = { in: 'query'; name: string } | { in: 'bearer' } | { in: 'none' };

/** A legacy request, read: declared parameters parsed, the JSON body, the headers. */
export interface LegacyRequest {
  params: Record<string, unknown>;
  body: unknown;
  header: (name: string) => string | undefined;
}

/** How the legacy request names what the GraphQL operation calls an argument. */
export type LegacyName = { param: string } | { header: string };

/** How a route's answer is written: one body from one run of the operation, or a list read page by page. */
export type LegacyAnswer<TData> =
  | { toLegacy: (data: TData, request: LegacyRequest) => unknown; list?: never }
  | {
      /**
       * The operation takes $first and $after and is run once per page (first = the bound the SDL's
       * @listSize gives `field` of Query, after = the previous page's endCursor), each page mapped and
       * written as it arrives: memory holds one page, not the list.
       */
      list: { field: string; body: LegacyListBody<TData> };
      toLegacy?: never;
    };

export type LegacyRoute<TData = never> = LegacyRouteBase<TData> & LegacyAnswer<TData>;

interface LegacyRouteBase<TData> {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  surface: Surface;
  credential: CredentialSource;
  params: readonly ParamSpec[];
  /** The route takes a JSON object body (Content-Type: application/json). */
  jsonBody?: boolean;
  /** A GET that writes: every answer carries Cache-Control: no-store. */
  noStore?: boolean;
  /** Text of the handwritten operation in rest/operations/. */
  operation: string;
  variables: (request: LegacyRequest) => Record<string, unknown>;
  /** GraphQL arguments the operation's errors may name, as the legacy request names them. */
  argumentNames?: Readonly<Record<string, LegacyName>>;
  /** Whether the answer replays a stored one (sets Idempotent-Replayed: true). */
  replayed?: (data: TData) => boolean;
}

function operation(file: string): string {
  return readFileSync(new URL(`./operations/${file}.graphql`, import.meta.url), 'utf8');
}

/** Keeps each route's mapper typed with its own operation's data. */
function route<TData>(definition: LegacyRoute<TData>): LegacyRoute<TData> {
  return definition;
}

const PARTNER_KEY: CredentialSource = { in: 'query', name: 'key' };
const LOCATOR_MAX = 64;
const CART_FIELDS = ['customer.id', 'customer.name', 'customer.phoneNumber', 'customer.email', 'customer.address', 'customer.nationalId', 'device.description'] as const;
const NO_FIELDS: ReadonlySet<string> = new Set();
const fieldsOf = (request: LegacyRequest) => (request.params.fields as ReadonlySet<string> | undefined) ?? NO_FIELDS;

/** The JSON object body of a payments request. */
function bodyObject(request: LegacyRequest): Record<string, unknown> {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequestBody('must be a JSON object');
  return body as Record<string, unknown>;
}

export const LEGACY_ROUTES = [
  route<CreateAccessTokenMutation>({
    name: 'create-access-token',
    method: 'POST',
    path: '/payments/v1/token',
    surface: 'payments',
    // The key travels in the body and is what the operation trades; no other credential.
    credential: { in: 'none' },
    params: [],
    jsonBody: true,
    operation: operation('createAccessToken'),
    variables: (request) => {
      const apiKey = bodyObject(request).apiKey;
      if (apiKey === undefined || apiKey === null || apiKey === '') {
        throw new AppError('MISSING_API_KEY', 'the action is not authorized: apiKey is a required field');
      }
      if (typeof apiKey !== 'string') throw invalidRequestBody('field apiKey must be a string');
      return { apiKey };
    },
    toLegacy: accessTokenBody,
  }),
  route<CreatePaymentNotificationMutation>({
    name: 'create-payment-notification',
    method: 'POST',
    path: '/payments/v1/notification',
    surface: 'payments',
    credential: { in: 'bearer' },
    params: [],
    jsonBody: true,
    operation: operation('createPaymentNotification'),
    variables: (request) => ({ notification: bodyObject(request) }),
    toLegacy: paymentNotificationBody,
    replayed: (data) => data.createPaymentNotification.receipt.replayed,
  }),
  route<ListClerksQuery>({
    name: 'list-clerks',
    method: 'GET',
    path: '/v1/list-clerks.php',
    surface: 'partner',
    credential: PARTNER_KEY,
    params: [],
    operation: operation('listClerks'),
    variables: () => ({}),
    list: { field: 'clerks', body: listClerksBody },
  }),
  route<ListMerchantsQuery>({
    name: 'list-merchants',
    method: 'GET',
    path: '/v1/list-merchants.php',
    surface: 'partner',
    credential: PARTNER_KEY,
    params: [],
    operation: operation('listMerchants'),
    variables: () => ({}),
    list: { field: 'merchants', body: listMerchantsBody },
  }),
  route<LookupCustomerQuery>({
    name: 'lookup-customer',
    method: 'GET',
    path: '/v1/lookup-customer.php',
    surface: 'partner',
    credential: PARTNER_KEY,
    params: [
      { name: 'customerLocator', required: true, parse: parseParam.text(LOCATOR_MAX) },
      { name: 'fields', required: false, parse: parseParam.fieldList(['device.description']) },
    ],
    operation: operation('lookupCustomer'),
    variables: (request) => ({ locator: request.params.customerLocator, withDescription: fieldsOf(request).has('device.description') }),
    toLegacy: (data, request) => lookupCustomerBody(data, request.params.customerLocator as string, fieldsOf(request).has('device.description')),
  }),
  route<LookupCartQuery>({
    name: 'lookup-cart',
    method: 'GET',
    path: '/v1/lookup-cart.php',
    surface: 'partner',
    credential: PARTNER_KEY,
    params: [
      { name: 'cartTag', required: true, parse: parseParam.text(LOCATOR_MAX) },
      { name: 'fields', required: false, parse: parseParam.fieldList(CART_FIELDS) },
    ],
    operation: operation('lookupCart'),
    variables: (request) => {
      const fields = fieldsOf(request);
      return {
        cartTag: request.params.cartTag,
        customerId: fields.has('customer.id'),
        customerName: fields.has('customer.name'),
        customerPhoneNumber: fields.has('customer.phoneNumber'),
        customerEmail: fields.has('customer.email'),
        customerAddress: fields.has('customer.address'),
        customerNationalId: fields.has('customer.nationalId'),
        withDescription: fields.has('device.description'),
      };
    },
    toLegacy: (data, request) => lookupCartBody(data, request.params.cartTag as string),
  }),
  route<ListTransactionsQuery>({
    name: 'list-transactions',
    method: 'GET',
    path: '/v1/list-transactions.php',
    surface: 'partner',
    credential: PARTNER_KEY,
    params: [
      { name: 'starttime', required: true, parse: parseParam.unixSeconds },
      { name: 'endtime', required: true, parse: parseParam.unixSeconds },
      { name: 'filter', required: false, repeatable: true, parse: parseParam.text(200) },
    ],
    operation: operation('listTransactions'),
    variables: (request) => ({ start: request.params.starttime, end: request.params.endtime, filter: request.params.filter }),
    argumentNames: { start: { param: 'starttime' }, end: { param: 'endtime' }, filter: { param: 'filter' } },
    // 10,000 transactions are two pages (5,000 each): three statements with the key's lookup.
    list: { field: 'transactions', body: listTransactionsBody },
  }),
  route<RecordCustomerPaymentMutation>({
    name: 'record-customer-payment',
    method: 'GET',
    path: '/v1/record-customer-payment.php',
    surface: 'partner',
    credential: PARTNER_KEY,
    params: [
      { name: 'merchantId', required: true, parse: parseParam.databaseId },
      { name: 'salesClerkId', required: true, parse: parseParam.databaseId },
      { name: 'financeOrderId', required: true, parse: parseParam.databaseId },
      { name: 'amount', required: true, parse: parseParam.decimal },
      { name: 'currency', required: true, parse: parseParam.currencyCode },
    ],
    noStore: true,
    operation: operation('recordCustomerPayment'),
    variables: (request) => ({
      merchantId: request.params.merchantId,
      salesClerkId: request.params.salesClerkId,
      financeOrderId: request.params.financeOrderId,
      amount: request.params.amount,
      currency: request.params.currency,
      idempotencyKey: request.header('idempotency-key') ?? null,
    }),
    argumentNames: { idempotencyKey: { header: 'Idempotency-Key' } },
    toLegacy: recordCustomerPaymentBody,
    replayed: (data) => data.recordInStorePayment.replayed,
  }),
] as const satisfies readonly LegacyRoute<never>[];
