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
  RepaymentOptionsQuery,
  RepaymentOptionsQueryVariables,
  ReverseVendorPaymentMutation,
  ReverseVendorPaymentMutationVariables,
} from '../__generated__/operations.js';
import type { LegacyDoor } from '../http/errorResponses.js';
import { invalidRequestBody } from '../kernel/errors.js';
import type { PrincipalRequirement } from '../modules/auth/principal.js';
import { CART_TAG_MAX_LENGTH } from '../modules/carts/rows.js';
import { LOCATOR_MAX_LENGTH } from '../modules/customers/locate.js';
import { IDEMPOTENCY_KEY_FORMAT } from '../modules/payments/idempotency.js';
import { MAX_LOCATOR_LENGTH } from '../modules/payments/notificationLimits.js';
import {
  acceptedNotification,
  accessTokenBody,
  type LegacyListBody,
  listClerksBody,
  listMerchantsBody,
  listTransactionsBody,
  lookupCartBody,
  lookupCustomerBody,
  paymentNotificationBody,
  paymentReversalBody,
  recordCustomerPaymentBody,
  repaymentOptionsBody,
} from './mappers.js';
import { RATE_LIMITED } from './openapiSchemas.js';
import { type ParamSpecs, type ParamValues, param, parseParam } from './params.js';

/** Where a route's credential is presented. */
type CredentialSource = { in: 'query'; name: string } | { in: 'bearer' } | { in: 'none' };

/** A legacy request, read: its declared parameters parsed (`TParams`), the JSON body, the headers. */
export interface LegacyRequest<TParams> {
  params: TParams;
  body: unknown;
  header: (name: string) => string | undefined;
}

/** How the legacy request names what the GraphQL operation calls an argument. */
type LegacyName = { param: string } | { header: string };

/** An operation's variables, as GraphQL takes them. */
export type OperationVariables = Readonly<Record<string, unknown>>;

/** How a route's answer is written: one body from one run of the operation, or a list read page by page. */
type LegacyAnswer<TData, TParams> =
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

/** The kinds of API key a partner route's `key` parameter may open (decisions.md 1). */
type PartnerKeyKind = 'partner' | 'retail';

/**
 * What the OpenAPI document says of a route beyond what the rest of its entry tells (rest/openapi.ts
 * derives the operation's id from the name, its tag from the door, its security from the credential,
 * its parameters from params). Schemas are named as rest/openapiSchemas.ts names them.
 */
interface RouteDoc {
  summary: string;
  description: string;
  /** Which kinds of key the `key` parameter opens (a valid key of another kind is 403). */
  keys?: readonly PartnerKeyKind[];
  /** The request headers the route reads besides its credential, each with what it is. */
  headers?: Readonly<Record<string, string>>;
  /** The JSON body's schema. */
  body?: string;
  /** The 200 answer: what it is, and its schema. */
  answer: { description: string; schema: string };
  /** The route's own error answers, beside (or instead of) those its door gives every route: status -> what it means. */
  errors?: Readonly<Record<number, string>>;
}

/** What every route declares whatever its types: what the handler reads of it before its parameters. */
export interface LegacyRouteHead {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  door: LegacyDoor;
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
  /** What the OpenAPI document says of it. */
  doc: RouteDoc;
}

/**
 * A route as the table writes it: `TData` is its operation's data, `TVariables` its variables (a list
 * route's $first and $after are the handler's), `P` its declared parameters, whose values
 * (ParamValues<P>) the variables and the mapper receive.
 */
type LegacyRouteDefinition<TData, TVariables, P extends ParamSpecs> = LegacyRouteHead & {
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

/**
 * A member of a payments body that must be a string: only its type is the door's (an absent one is '',
 * so the graph's own rule names what is wrong with it, as it does for an empty argument).
 */
function bodyString(body: Record<string, unknown>, member: string): string {
  const value = body[member] ?? '';
  if (typeof value !== 'string') throw invalidRequestBody(`field ${member} must be a string`);
  return value;
}

export const LEGACY_ROUTES: readonly LegacyRoute[] = [
  route<CreateAccessTokenMutation, CreateAccessTokenMutationVariables>()({
    name: 'create-access-token',
    method: 'POST',
    path: '/payments/v1/token',
    door: 'payments',
    // The key travels in the body and is what the operation trades; no other credential.
    credential: { in: 'none' },
    principal: 'none',
    doc: {
      summary: 'Create an access token',
      description:
        'Trades a vendor (or operator) API key for a bearer access token (default lifetime 3600 s), to send as Authorization: Bearer on the notification endpoint. The key travels in the body, so this endpoint has no security scheme; partner and retail keys cannot buy tokens. Every answer carries Cache-Control: no-store.',
      body: 'AccessTokenRequest',
      answer: { description: 'The token.', schema: 'AccessToken' },
      errors: {
        400: 'INVALID_REQUEST_BODY: the body is not a JSON object, is malformed, not UTF-8 or too large, names a member twice in one object, or apiKey is not a string.',
        401: 'The action is not authorized: the key is missing, invalid, revoked or expired, or cannot buy tokens.',
      },
    },
    params: {},
    jsonBody: true,
    // An access token is a credential: no cache keeps it (RFC 6749 5.1).
    noStore: true,
    operation: operation('createAccessToken'),
    variables: (request) => {
      // Only the body's shape is the door's: whether a key was given and is valid is createAccessToken's
      // rule (an absent or null member is no key, '', as the graph says of an empty argument).
      const apiKey = bodyObject(request).apiKey ?? '';
      if (typeof apiKey !== 'string') throw invalidRequestBody('field apiKey must be a string');
      return { apiKey };
    },
    toLegacy: accessTokenBody,
  }),
  route<CreatePaymentNotificationMutation, CreatePaymentNotificationMutationVariables>()({
    name: 'create-payment-notification',
    method: 'POST',
    path: '/payments/v1/notification',
    door: 'payments',
    credential: { in: 'bearer' },
    // Which principal may notify (a vendor's access token) is the graph's rule.
    principal: 'any',
    doc: {
      summary: 'Create a payment notification',
      description:
        "A vendor tells the service of a payment it collected, with an access token bought with its vendor key (accessToken). The body must satisfy the vendor's stored JSON Schema (demo-vendor's is shown). Before the schema, the service holds its own limits whatever the schema allows: at most 32 levels of nesting, 1000 values, strings and member names of at most 1000 characters (reference 255, deviceTag, imei, phoneNumber and financeOrderId 64). The vendor's reference is its idempotency key: a repeat with the same body replays the first answer (Idempotent-Replayed: true); with another body it is 409. Bodies are compared with the amount by value in the currency's minor units (19, 19.00 and \"19.00\" are one amount) and member order ignored. A JSON number is read as written, never rounded: an amount with more decimals than the currency has (18.999999999999999 USD) is refused. A member name given twice in one object is refused (400). Any vendor may add paymentReference, the code of a payment reference (createPaymentReference in GraphQL): the service takes it out before the vendor's schema runs, and the payment must be exactly the reference's amount and currency; the reference is paid once, never after it expires or once cancelled.",
      body: 'Notification',
      answer: { description: 'Recorded (or replayed).', schema: 'NotificationAccepted' },
      errors: {
        400: 'The body is malformed, not UTF-8, too large, nests more than 32 levels or names a member twice in one object (INVALID_REQUEST_BODY); the notification is not valid (INVALID_NOTIFICATION: it names the problem, e.g. that paymentVendor is a required field, or a string over its length limit); or the amount is refused (INVALID_PAYMENT_AMOUNT, CURRENCY_MISMATCH, AMOUNT_EXCEEDS_BALANCE, AMOUNT_NOT_AN_OPTION: not positive, too many decimals, other currency, above the balance, or neither an option nor the full payoff when the partner takes no flexible amounts: see GET /payments/v1/repayment-options); AMOUNT_MISMATCH: not the amount or currency of the paymentReference.',
        401: 'INVALID_ACCESS_TOKEN: the access token is missing, malformed, tampered, expired, or its key was revoked.',
        403: "FORBIDDEN: paymentVendor is not the token's vendor, the vendor is disabled, or the credential is not a vendor's.",
        404: 'RESOURCE_NOT_FOUND: no device, customer or finance order matches. PAYMENT_REFERENCE_NOT_FOUND: the paymentReference is unknown, cancelled, or not of the order the locator names.',
        409: "IDEMPOTENCY_CONFLICT: the reference was already used for a different notification. PAYMENT_REFERENCE_ALREADY_PAID: the paymentReference is paid already. PAYMENT_REFERENCE_EXPIRED: its expiresAt has passed. FINANCE_ORDER_CLOSED: the order was written off or closed on its device's return, and takes no payment.",
        429: `${RATE_LIMITED} Also RATE_LIMITED: the notification quotes a paymentReference, and the notifications of the API key behind the token had PAYMENT_REFERENCE_FAILURE_LIMIT references refused (unknown, or another amount) in the window of 60 s; nothing is read or written until Retry-After.`,
        500: 'Internal server error while creating the notification.',
        503: "The database cannot be reached or did not answer in time, or the vendor's stored schema can no longer be used until an operator replaces it.",
      },
    },
    params: {},
    jsonBody: true,
    operation: operation('createPaymentNotification'),
    variables: (request) => ({ notification: bodyObject(request) }),
    toLegacy: paymentNotificationBody,
    replayed: (data) => acceptedNotification(data).receipt.replayed,
  }),
  route<ReverseVendorPaymentMutation, ReverseVendorPaymentMutationVariables>()({
    name: 'reverse-payment',
    method: 'POST',
    path: '/payments/v1/reversal',
    door: 'payments',
    credential: { in: 'bearer' },
    // Which principal may reverse (the payment's own vendor, by its access token) is the graph's rule.
    principal: 'any',
    doc: {
      summary: 'Reverse a payment',
      description:
        "A vendor undoes a payment it notified (decisions.md 44), inside the payment's reversal window (its partner's reversalWindowHours, 72 unless set, from when it was received), with the access token of its notifications (accessToken) and the notification's reference. Exactly what the payment did is undone: the order's balance and the days the payment bought (a later payment keeps its own), never erasing it: the payment stays on record, reversed. A payoff's release waits for this window, so reversing a payoff brings the order back and nothing was released. One reversal per payment: a repeat is 409 PAYMENT_ALREADY_REVERSED, unless it carries the Idempotency-Key of the first, which replays the first answer (Idempotent-Replayed: true). Another vendor's reference answers as an unknown one. Every answer carries Cache-Control: no-store.",
      headers: { 'Idempotency-Key': `${IDEMPOTENCY_KEY_FORMAT}: the same key and body replay the first answer.` },
      body: 'ReversalRequest',
      answer: { description: 'Reversed (or replayed).', schema: 'ReversalAccepted' },
      errors: {
        400: "INVALID_REQUEST_BODY: the body is not a JSON object, is malformed, or a member is not a string. INVALID_ARGUMENT: reference is empty or over 255 characters, reason empty or over 500, or the Idempotency-Key header is malformed. REVERSAL_WINDOW_CLOSED: the payment's window has closed (the answer names when).",
        401: 'INVALID_ACCESS_TOKEN: the access token is missing, malformed, tampered, expired, or its key was revoked.',
        403: "FORBIDDEN: paymentVendor is not the token's vendor, the vendor is disabled, or the credential is not a vendor's.",
        404: "RESOURCE_NOT_FOUND: no payment of this vendor has that reference (another vendor's is not told apart).",
        409: "PAYMENT_ALREADY_REVERSED: the payment was reversed already (the answer names the reversal). FINANCE_ORDER_CLOSED: its order was written off or closed on the device's return. IDEMPOTENCY_CONFLICT: the Idempotency-Key was used for another reversal.",
      },
    },
    params: {},
    jsonBody: true,
    noStore: true,
    operation: operation('reversePayment'),
    variables: (request) => {
      const body = bodyObject(request);
      return {
        paymentVendor: bodyString(body, 'paymentVendor'),
        reference: bodyString(body, 'reference'),
        reason: bodyString(body, 'reason'),
        idempotencyKey: request.header('idempotency-key') ?? null,
      };
    },
    // The body's members keep the graph's names (input.reason ...): only the header is the door's own.
    argumentNames: {
      idempotencyKey: { header: 'Idempotency-Key' },
      'input.idempotencyKey': { header: 'Idempotency-Key' },
    },
    toLegacy: paymentReversalBody,
    replayed: (data) => data.reverseVendorPayment.replayed,
  }),
  route<RepaymentOptionsQuery, RepaymentOptionsQueryVariables>()({
    name: 'get-repayment-options',
    method: 'GET',
    path: '/payments/v1/repayment-options',
    door: 'payments',
    credential: { in: 'bearer' },
    // Which principal may ask (a vendor's access token, as for notifications) is the graph's rule.
    principal: 'any',
    doc: {
      summary: 'Get repayment options',
      description:
        "Before taking cash, a vendor asks what the device's order takes, with the access token of its notifications (accessToken): the order a notification naming the device would pay, its currency, the least amount that buys a day of use (minimumPaymentAmount; without flexible amounts, the least amount taken), the full payoff, whether other amounts are taken (flexibleAmountEnabled: when false, a notification for another amount than an option's or the full payoff is refused with AMOUNT_NOT_AN_OPTION), when the device locks if nothing is paid (lockAt, Unix seconds), and one option per day count the partner offers: the cheapest amount buying at least that many days (at most the balance), with the days it buys (daysPaid). A payment buys floor((totalPaid + amount) * 30 / monthlyCost) - floor(totalPaid * 30 / monthlyCost) days. Amounts are decimal strings in the order's currency. It answers the notification's refusals.",
      answer: { description: 'What the order takes now.', schema: 'RepaymentOptions' },
      errors: {
        400: "MISSING_QUERY_PARAMETER or INVALID_QUERY_PARAMETER (deviceTag missing, over 64 characters or given twice; currency not a supported ISO 4217 code); CURRENCY_MISMATCH: currency is not the order's; AMOUNT_EXCEEDS_BALANCE: the order is fully paid, so any payment would be refused.",
        401: 'INVALID_ACCESS_TOKEN: the access token is missing, malformed, tampered, expired, or its key was revoked.',
        403: "FORBIDDEN: the vendor is disabled, or the credential is not a vendor's access token.",
        404: 'RESOURCE_NOT_FOUND: no device has that tag, or the device has no finance order.',
        405: 'METHOD_NOT_ALLOWED: another method than GET (see the Allow header).',
        409: "FINANCE_ORDER_CLOSED: the device's order was written off or closed on its return, and takes no payment.",
      },
    },
    params: {
      deviceTag: param.required(parseParam.text(MAX_LOCATOR_LENGTH), "The device's tag, as a notification names it."),
      currency: param.optional(
        parseParam.currencyCode,
        "The currency the vendor would take: when given, it must be the order's (else CURRENCY_MISMATCH).",
      ),
    },
    operation: operation('repaymentOptions'),
    variables: ({ params }) => ({ deviceTag: params.deviceTag, currency: params.currency ?? null }),
    toLegacy: repaymentOptionsBody,
  }),
  route<ListClerksQuery, ListClerksQueryVariables>()({
    name: 'list-clerks',
    method: 'GET',
    path: '/v1/list-clerks.php',
    door: 'partner',
    credential: PARTNER_KEY,
    principal: 'partner-tenant',
    doc: {
      summary: 'List clerks',
      description: "The key's partner's clerks, ordered by id. Partner and retail keys.",
      keys: ['partner', 'retail'],
      answer: { description: 'Success.', schema: 'ClerkList' },
    },
    params: {},
    operation: operation('listClerks'),
    variables: () => ({}),
    list: { field: 'clerks', body: listClerksBody },
  }),
  route<ListMerchantsQuery, ListMerchantsQueryVariables>()({
    name: 'list-merchants',
    method: 'GET',
    path: '/v1/list-merchants.php',
    door: 'partner',
    credential: PARTNER_KEY,
    principal: 'partner-tenant',
    doc: {
      summary: 'List merchants',
      description: "The key's partner's merchants, ordered by id. Partner and retail keys.",
      keys: ['partner', 'retail'],
      answer: { description: 'Success.', schema: 'MerchantList' },
    },
    params: {},
    operation: operation('listMerchants'),
    variables: () => ({}),
    list: { field: 'merchants', body: listMerchantsBody },
  }),
  route<LookupCustomerQuery, LookupCustomerQueryVariables>()({
    name: 'lookup-customer',
    method: 'GET',
    path: '/v1/lookup-customer.php',
    door: 'partner',
    credential: PARTNER_KEY,
    principal: 'partner-tenant',
    doc: {
      summary: 'Look up a customer',
      description:
        "customerLocator is tried as an IMEI (15 or 16 digits), a device tag, the customer's phone number, then the customer id. The order shown is the device's (IMEI or tag), else the customer's newest open order. Partner and retail keys.",
      keys: ['partner', 'retail'],
      answer: { description: 'Success.', schema: 'LookupCustomerResult' },
      errors: { 404: 'RESOURCE_NOT_FOUND: no customer of this partner matches.' },
    },
    params: {
      customerLocator: param.required(
        parseParam.text(LOCATOR_MAX_LENGTH),
        'Phone number, device tag, IMEI or customer id.',
      ),
      fields: param.optional(
        parseParam.fieldList(['device.description']),
        'Comma-separated extra fields; the only allowed value is device.description.',
      ),
    },
    operation: operation('lookupCustomer'),
    variables: ({ params }) => ({
      locator: params.customerLocator,
      withDescription: fieldsOf(params).has('device.description'),
    }),
    toLegacy: (data, { params }) => lookupCustomerBody(data, params.customerLocator),
  }),
  route<LookupCartQuery, LookupCartQueryVariables>()({
    name: 'lookup-cart',
    method: 'GET',
    path: '/v1/lookup-cart.php',
    door: 'partner',
    credential: PARTNER_KEY,
    principal: 'partner-tenant',
    doc: {
      summary: 'Look up a cart',
      description:
        'Customer fields are returned only when asked for in fields (customer is {} without). Partner keys only (retail keys: 403).',
      keys: ['partner'],
      answer: { description: 'Success.', schema: 'LookupCartResult' },
      errors: { 404: 'RESOURCE_NOT_FOUND: no cart of this partner has that tag.' },
    },
    params: {
      cartTag: param.required(parseParam.text(CART_TAG_MAX_LENGTH), 'The cart tag.'),
      fields: param.optional(parseParam.fieldList(CART_FIELDS), `Comma-separated: ${CART_FIELDS.join(', ')}.`),
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
    door: 'partner',
    credential: PARTNER_KEY,
    principal: 'partner-tenant',
    doc: {
      summary: 'List transactions',
      description:
        'Transactions with starttime <= time < endtime (Unix seconds; at most 366 days), sorted by time, then id. filter=<path>:<value> may be repeated; all terms must match (e.g. type:cash, merchant.name:DEMO, financeOrder.id:4000004, device.imei:123456789012347). Partner keys only (retail keys: 403).',
      keys: ['partner'],
      answer: { description: 'Success.', schema: 'TransactionList' },
    },
    params: {
      starttime: param.required(parseParam.unixSeconds, 'Start of the window, inclusive, Unix seconds.'),
      endtime: param.required(parseParam.unixSeconds, 'End of the window, exclusive, Unix seconds.'),
      filter: param.repeatable(parseParam.text(200), '<field path>:<value>; repeatable.'),
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
    door: 'partner',
    credential: PARTNER_KEY,
    principal: 'partner-tenant',
    doc: {
      summary: 'Record an in-store payment',
      description:
        'Creates the payment, a cash transaction and (when the partner earns commission) a commission transaction, in one database transaction. Retail keys only (partner keys: 403). Every answer carries Cache-Control: no-store. An optional Idempotency-Key header makes a retry safe: the same key with the same parameters replays the first answer (Idempotent-Replayed: true) and records nothing; with other parameters it is 409. Keys are kept at least 24 hours.',
      keys: ['retail'],
      headers: { 'Idempotency-Key': `${IDEMPOTENCY_KEY_FORMAT}.` },
      answer: { description: 'Success.', schema: 'RecordedPayment' },
      errors: {
        400: 'MISSING_QUERY_PARAMETER, INVALID_QUERY_PARAMETER, INVALID_PAYMENT_AMOUNT, CURRENCY_MISMATCH, AMOUNT_EXCEEDS_BALANCE, AMOUNT_NOT_AN_OPTION (the partner takes no flexible amounts, and this is neither an option of FinanceOrder.repayment nor the full payoff), or INVALID_ARGUMENT (a malformed Idempotency-Key header). Nothing is recorded.',
        404: "RESOURCE_NOT_FOUND: the merchant, clerk or finance order is not the key's partner's.",
        409: "IDEMPOTENCY_CONFLICT: the Idempotency-Key was used for different parameters. FINANCE_ORDER_CLOSED: the order was written off or closed on its device's return, and takes no payment (nothing is written).",
      },
    },
    params: {
      merchantId: param.required(parseParam.databaseId, 'From List Merchants.'),
      salesClerkId: param.required(parseParam.databaseId, 'From List Clerks.'),
      financeOrderId: param.required(parseParam.databaseId, 'From Lookup Customer.'),
      amount: param.required(
        parseParam.decimal,
        "More than zero, at most the remaining balance, with at most the currency's decimals.",
      ),
      currency: param.required(parseParam.currencyCode, "The order's ISO 4217 currency."),
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
