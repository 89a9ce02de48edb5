// THE legacy route table. Each route: its method and path, which interface it belongs to, where its
// credential is and what principal it needs, its declared (typed) parameters, the handwritten
// GraphQL operation it runs, how the request becomes the operation's variables, and the explicit
// mapper (rest/mappers.ts) from the operation's data to the frozen legacy body. The graph can grow;
// these bodies do not.
import { readFileSync } from 'node:fs';
import type {
  CreateAccessTokenMutation,
  CreateAccessTokenMutationVariables,
  CreatePaymentNotificationMutation,
  CreatePaymentNotificationMutationVariables,
  ListClerksQuery,
  ListClerksQueryVariables,
  ListMerchantsQuery,
  ListMerchantsQueryVariables,
  ListTransactionsQuery,
  ListTransactionsQueryVariables,
  LookupCartQuery,
  LookupCartQueryVariables,
  LookupCustomerQuery,
  LookupCustomerQueryVariables,
  RecordCustomerPaymentMutation,
  RecordCustomerPaymentMutationVariables,
} from '../__generated__/operations.js';
import { AppError, invalidRequestBody } from '../errors.js';
import type { Surface } from '../http/errorResponses.js';
import type { PrincipalRequirement } from '../modules/auth/principal.js';
import {
  accessTokenBody,
  type LegacyListBody,
  listClerksBody,
  listMerchantsBody,
  listTransactionsBody,
  lookupCartBody,
  lookupCustomerBody,
  paymentNotificationBody,
  recordCustomerPaymentBody,
} from './mappers.js';
import { type ParamSpecs, type ParamValues, param, parseParam } from './params.js';

/** Where a route's credential is presented. */
export type CredentialSource = { in: 'query'; name: string } | { in: 'bearer' } | { in: 'none' };

/** A legacy request, read: its declared parameters parsed (`TParams`), the JSON body, the headers. */
export interface LegacyRequest<TParams> {
  params: TParams;
  body: unknown;
  header: (name: string) => string | undefined;
}

/** How the legacy request names what the GraphQL operation calls an argument. */
export type LegacyName = { param: string } | { header: string };

/** An operation's variables, as GraphQL takes them. */
export type OperationVariables = Readonly<Record<string, unknown>>;

/** How a route's answer is written: one body from one run of the operation, or a list read page by page. */
export type LegacyAnswer<TData, TParams> =
  | { toLegacy: (data: TData, request: LegacyRequest<TParams>) => unknown; list?: never }
  | {
      /**
       * The operation takes $first and $after and is run once per page (first = the bound the SDL's
       * @listSize gives `field` of Query, after = the previous page's endCursor), each page mapped and
       * written as it arrives: memory holds one page, not the list.
       */
      list: { field: string; body: LegacyListBody<TData> };
      toLegacy?: never;
    };

/** What every route declares whatever its types: what the handler reads of it before its parameters. */
export interface LegacyRouteHead {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  surface: Surface;
  credential: CredentialSource;
  /** What the caller must be, checked right after authentication, before anything else is read. */
  principal: PrincipalRequirement;
  /** The route takes a JSON object body (Content-Type: application/json). */
  jsonBody?: boolean;
  /** Every answer carries Cache-Control: no-store: a GET that writes, or an answer holding a credential. */
  noStore?: boolean;
  /** Text of the handwritten operation in rest/operations/. */
  operation: string;
  /** GraphQL arguments the operation's errors may name, as the legacy request names them. */
  argumentNames?: Readonly<Record<string, LegacyName>>;
}

/**
 * A route as the table writes it: `TData` is its operation's data, `TVariables` its variables (a list
 * route's $first and $after are the handler's), `P` its declared parameters, whose values
 * (ParamValues<P>) the variables and the mapper receive.
 */
export type LegacyRouteDefinition<TData, TVariables, P extends ParamSpecs> = LegacyRouteHead & {
  params: P;
  variables: (request: LegacyRequest<ParamValues<P>>) => TVariables;
  /** Whether the answer replays a stored one (sets Idempotent-Replayed: true). */
  replayed?: (data: TData) => boolean;
} & LegacyAnswer<TData, ParamValues<P>>;

/** A route with its types, as the handler runs it. */
export type TypedLegacyRoute<TData, P extends ParamSpecs> = LegacyRouteDefinition<TData, OperationVariables, P>;

/** A route of the table, its types kept inside: `typed` hands the route to code written for any TData and P. */
export interface LegacyRoute extends LegacyRouteHead {
  typed<R>(use: <TData, P extends ParamSpecs>(route: TypedLegacyRoute<TData, P>) => R): R;
}

function operation(file: string): string {
  return readFileSync(new URL(`./operations/${file}.graphql`, import.meta.url), 'utf8');
}

/**
 * A route of the table, checked against its operation's generated types: `route<Data, Variables>()({...})`;
 * the parameters' types come from the declared params.
 */
function route<TData, TVariables extends OperationVariables>() {
  return <P extends ParamSpecs>(definition: LegacyRouteDefinition<TData, TVariables, P>): LegacyRoute => ({
    ...definition,
    typed: (use) => use(definition),
  });
}

const PARTNER_KEY: CredentialSource = { in: 'query', name: 'key' };
const LOCATOR_MAX = 64;
const CART_FIELDS = [
  'customer.id',
  'customer.name',
  'customer.phoneNumber',
  'customer.email',
  'customer.address',
  'customer.nationalId',
  'device.description',
] as const;
const NO_FIELDS: ReadonlySet<string> = new Set();
const fieldsOf = (params: { fields?: ReadonlySet<string> }) => params.fields ?? NO_FIELDS;

/** The JSON object body of a payments request. */
function bodyObject(request: LegacyRequest<unknown>): Record<string, unknown> {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidRequestBody('must be a JSON object');
  return body as Record<string, unknown>;
}

export const LEGACY_ROUTES: readonly LegacyRoute[] = [
  route<CreateAccessTokenMutation, CreateAccessTokenMutationVariables>()({
    name: 'create-access-token',
    method: 'POST',
    path: '/payments/v1/token',
    surface: 'payments',
    // The key travels in the body and is what the operation trades; no other credential.
    credential: { in: 'none' },
    principal: 'none',
    params: {},
    jsonBody: true,
    // An access token is a credential: no cache keeps it (RFC 6749 5.1).
    noStore: true,
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
  route<CreatePaymentNotificationMutation, CreatePaymentNotificationMutationVariables>()({
    name: 'create-payment-notification',
    method: 'POST',
    path: '/payments/v1/notification',
    surface: 'payments',
    credential: { in: 'bearer' },
    // Which principal may notify (a vendor's access token) is the graph's rule.
    principal: 'any',
    params: {},
    jsonBody: true,
    operation: operation('createPaymentNotification'),
    variables: (request) => ({ notification: bodyObject(request) }),
    toLegacy: paymentNotificationBody,
    replayed: (data) => data.createPaymentNotification.receipt.replayed,
  }),
  route<ListClerksQuery, ListClerksQueryVariables>()({
    name: 'list-clerks',
    method: 'GET',
    path: '/v1/list-clerks.php',
    surface: 'partner',
    credential: PARTNER_KEY,
    principal: 'partner-tenant',
    params: {},
    operation: operation('listClerks'),
    variables: () => ({}),
    list: { field: 'clerks', body: listClerksBody },
  }),
  route<ListMerchantsQuery, ListMerchantsQueryVariables>()({
    name: 'list-merchants',
    method: 'GET',
    path: '/v1/list-merchants.php',
    surface: 'partner',
    credential: PARTNER_KEY,
    principal: 'partner-tenant',
    params: {},
    operation: operation('listMerchants'),
    variables: () => ({}),
    list: { field: 'merchants', body: listMerchantsBody },
  }),
  route<LookupCustomerQuery, LookupCustomerQueryVariables>()({
    name: 'lookup-customer',
    method: 'GET',
    path: '/v1/lookup-customer.php',
    surface: 'partner',
    credential: PARTNER_KEY,
    principal: 'partner-tenant',
    params: {
      customerLocator: param.required(parseParam.text(LOCATOR_MAX)),
      fields: param.optional(parseParam.fieldList(['device.description'])),
    },
    operation: operation('lookupCustomer'),
    variables: ({ params }) => ({
      locator: params.customerLocator,
      withDescription: fieldsOf(params).has('device.description'),
    }),
    toLegacy: (data, { params }) =>
      lookupCustomerBody(data, params.customerLocator, fieldsOf(params).has('device.description')),
  }),
  route<LookupCartQuery, LookupCartQueryVariables>()({
    name: 'lookup-cart',
    method: 'GET',
    path: '/v1/lookup-cart.php',
    surface: 'partner',
    credential: PARTNER_KEY,
    principal: 'partner-tenant',
    params: {
      cartTag: param.required(parseParam.text(LOCATOR_MAX)),
      fields: param.optional(parseParam.fieldList(CART_FIELDS)),
    },
    operation: operation('lookupCart'),
    variables: ({ params }) => {
      const fields = fieldsOf(params);
      return {
        cartTag: params.cartTag,
        customerId: fields.has('customer.id'),
        customerName: fields.has('customer.name'),
        customerPhoneNumber: fields.has('customer.phoneNumber'),
        customerEmail: fields.has('customer.email'),
        customerAddress: fields.has('customer.address'),
        customerNationalId: fields.has('customer.nationalId'),
        withDescription: fields.has('device.description'),
      };
    },
    toLegacy: (data, { params }) => lookupCartBody(data, params.cartTag),
  }),
  route<ListTransactionsQuery, ListTransactionsQueryVariables>()({
    name: 'list-transactions',
    method: 'GET',
    path: '/v1/list-transactions.php',
    surface: 'partner',
    credential: PARTNER_KEY,
    principal: 'partner-tenant',
    params: {
      starttime: param.required(parseParam.unixSeconds),
      endtime: param.required(parseParam.unixSeconds),
      filter: param.repeatable(parseParam.text(200)),
    },
    operation: operation('listTransactions'),
    variables: ({ params }) => ({ start: params.starttime, end: params.endtime, filter: params.filter }),
    argumentNames: { start: { param: 'starttime' }, end: { param: 'endtime' }, filter: { param: 'filter' } },
    // 10,000 transactions are two pages (5,000 each): three statements with the key's lookup.
    list: { field: 'transactions', body: listTransactionsBody },
  }),
  route<RecordCustomerPaymentMutation, RecordCustomerPaymentMutationVariables>()({
    name: 'record-customer-payment',
    method: 'GET',
    path: '/v1/record-customer-payment.php',
    surface: 'partner',
    credential: PARTNER_KEY,
    principal: 'partner-tenant',
    params: {
      merchantId: param.required(parseParam.databaseId),
      salesClerkId: param.required(parseParam.databaseId),
      financeOrderId: param.required(parseParam.databaseId),
      amount: param.required(parseParam.decimal),
      currency: param.required(parseParam.currencyCode),
    },
    noStore: true,
    operation: operation('recordCustomerPayment'),
    variables: ({ params, header }) => ({
      merchantId: params.merchantId,
      salesClerkId: params.salesClerkId,
      financeOrderId: params.financeOrderId,
      amount: params.amount,
      currency: params.currency,
      idempotencyKey: header('idempotency-key') ?? null,
    }),
    argumentNames: { idempotencyKey: { header: 'Idempotency-Key' } },
    toLegacy: recordCustomerPaymentBody,
    replayed: (data) => data.recordInStorePayment.replayed,
  }),
];
