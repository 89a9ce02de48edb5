// The legacy contract in the OpenAPI document: the payments interface (/payments/v1) and the partner
// query interface (/v1), every status each endpoint answers with its error codes. Which key each
// endpoint takes (decisions.md 1) is its `security`: the partnerKey and retailKey schemes are both the
// `key` query parameter, told apart by the kind of key.
import { DEMO_VENDOR_SCHEMA } from '../modules/vendors/demoSchemas.js';
import { renderedErrors } from './openapiExamples.js';
import {
  arr,
  decimalString,
  errorResponse,
  int,
  jsonContent,
  obj,
  type Parameter,
  rateLimitedResponse,
  ref,
  type Schema,
  str,
  successHeaders,
} from './openapiSchemas.js';

export const PAYMENTS_TAG = 'Payments interface';
export const PARTNER_TAG = 'Partner query interface';

const partner = renderedErrors('partner');
const payments = renderedErrors('payments');

const queryParam = (name: string, description: string, schema: Schema = str(), required = true): Parameter => ({
  name,
  in: 'query',
  required,
  description,
  schema,
});

/** Partner and retail keys alike (decisions.md 1). */
const EITHER_KEY = [{ partnerKey: [] }, { retailKey: [] }];

/** The errors every partner endpoint can answer. */
const PARTNER_ERRORS = {
  '400': errorResponse(
    'partner',
    'MISSING_QUERY_PARAMETER or INVALID_QUERY_PARAMETER (a malformed value, or a parameter given more than once), or a refusal named by its code.',
  ),
  '401': errorResponse(
    'partner',
    'MISSING_API_KEY or INVALID_API_KEY (unknown, revoked or expired: one answer for all).',
  ),
  '403': errorResponse('partner', 'FORBIDDEN: a valid key of a kind this endpoint does not take.'),
  '405': errorResponse('partner', 'METHOD_NOT_ALLOWED: this path takes another method (see the Allow header).'),
  '414': errorResponse(
    'partner',
    'URI_TOO_LONG: the query string is longer than 8 KiB (8192 bytes).',
    partner.uriTooLong,
  ),
  '429': rateLimitedResponse('partner', partner.rateLimited),
  '500': errorResponse(
    'partner',
    'INTERNAL_SERVER_ERROR: the message carries an error id; the detail is in the service log.',
    partner.internal,
  ),
  '503': errorResponse(
    'partner',
    'SERVICE_UNAVAILABLE: the database cannot be reached or did not answer in time; retry shortly.',
    partner.unavailable,
  ),
};

function partnerGet(
  operation: { operationId: string; summary: string; description: string; security: unknown[] },
  parameters: Parameter[],
  success: Schema,
  extra: Record<string, unknown> = {},
) {
  return {
    get: {
      ...operation,
      tags: [PARTNER_TAG],
      parameters,
      responses: {
        '200': { description: 'Success.', headers: successHeaders, content: jsonContent(success) },
        ...PARTNER_ERRORS,
        ...extra,
      },
    },
  };
}

/** What every payments endpoint can answer besides its own statuses. */
const PAYMENTS_COMMON = {
  '405': errorResponse('payments', 'METHOD_NOT_ALLOWED: another method than POST (see the Allow header).'),
  '414': errorResponse('payments', 'The query string is longer than 8 KiB (8192 bytes).', payments.uriTooLong),
  '415': errorResponse('payments', 'The body is not sent as application/json.'),
  '429': rateLimitedResponse('payments', payments.rateLimited),
};

// The demo vendor's stored schema (without its $schema: the document's dialect is 2020-12 already).
const { $schema: _dialect, ...demoVendorBody } = DEMO_VENDOR_SCHEMA;

/** The notification body: the demo vendor's request schema, as the seed stores it with the vendor. */
export const NOTIFICATION_BODY: Schema = {
  ...demoVendorBody,
  description:
    "Each vendor's body is described by a JSON Schema agreed when its integration is set up and stored with the vendor (paymentVendor is the only field every vendor sends). This is demo-vendor's: amount (a positive number or a decimal string), currency (ISO 4217), reference (1 to 255 characters, the vendor's idempotency key), and exactly one of deviceTag, imei, phoneNumber, financeOrderId to find the finance order. other-vendor's requires deviceTag instead.",
};

export const legacyPaths = {
  '/payments/v1/token': {
    post: {
      operationId: 'createAccessToken',
      tags: [PAYMENTS_TAG],
      summary: 'Create an access token',
      description:
        'Trades a vendor (or operator) API key for a bearer access token (default lifetime 3600 s), to send as Authorization: Bearer on the notification endpoint. The key travels in the body, so this endpoint has no security scheme; partner and retail keys cannot buy tokens. Every answer carries Cache-Control: no-store.',
      security: [],
      requestBody: {
        required: true,
        content: jsonContent(obj({ apiKey: str('The private API key: a vendor key (demo: demo-vendor-key).') })),
      },
      responses: {
        '200': { description: 'The token.', headers: successHeaders, content: jsonContent(ref('AccessToken')) },
        '400': errorResponse(
          'payments',
          'INVALID_REQUEST_BODY: the body is not a JSON object, is malformed, not UTF-8 or too large, names a member twice in one object, or apiKey is not a string.',
        ),
        '401': errorResponse(
          'payments',
          'The action is not authorized: the key is missing, invalid, revoked or expired, or cannot buy tokens.',
        ),
        ...PAYMENTS_COMMON,
        '500': errorResponse('payments', 'Internal server error.', payments.internal),
        '503': errorResponse(
          'payments',
          'The database cannot be reached or did not answer in time.',
          payments.unavailable,
        ),
      },
    },
  },
  '/payments/v1/notification': {
    post: {
      operationId: 'createPaymentNotification',
      tags: [PAYMENTS_TAG],
      summary: 'Create a payment notification',
      description:
        "A vendor tells the service of a payment it collected, with an access token bought with its vendor key (accessToken). The body must satisfy the vendor's stored JSON Schema (demo-vendor's is shown). Before the schema, the service holds its own limits whatever the schema allows: at most 32 levels of nesting, 1000 values, strings and member names of at most 1000 characters (reference 255, deviceTag, imei, phoneNumber and financeOrderId 64). The vendor's reference is its idempotency key: a repeat with the same body replays the first answer (Idempotent-Replayed: true); with another body it is 409. Bodies are compared with the amount by value in the currency's minor units (19, 19.00 and \"19.00\" are one amount) and member order ignored. A JSON number is read as written, never rounded: an amount with more decimals than the currency has (18.999999999999999 USD) is refused. A member name given twice in one object is refused (400).",
      security: [{ accessToken: [] }],
      requestBody: { required: true, content: jsonContent(NOTIFICATION_BODY) },
      responses: {
        '200': {
          description: 'Recorded (or replayed).',
          headers: successHeaders,
          content: jsonContent(ref('NotificationAccepted')),
        },
        '400': errorResponse(
          'payments',
          'The body is malformed, not UTF-8, too large, nests more than 32 levels or names a member twice in one object (INVALID_REQUEST_BODY); the notification is not valid (INVALID_NOTIFICATION: it names the problem, e.g. that paymentVendor is a required field, or a string over its length limit); or the amount is refused (INVALID_PAYMENT_AMOUNT, CURRENCY_MISMATCH, AMOUNT_EXCEEDS_BALANCE: not positive, too many decimals, other currency, above the balance).',
        ),
        '401': errorResponse(
          'payments',
          'INVALID_ACCESS_TOKEN: the access token is missing, malformed, tampered, expired, or its key was revoked.',
        ),
        '403': errorResponse(
          'payments',
          "FORBIDDEN: paymentVendor is not the token's vendor, the vendor is disabled, or the credential is not a vendor's.",
        ),
        '404': errorResponse('payments', 'RESOURCE_NOT_FOUND: no device, customer or finance order matches.'),
        '409': errorResponse(
          'payments',
          'IDEMPOTENCY_CONFLICT: the reference was already used for a different notification.',
        ),
        ...PAYMENTS_COMMON,
        '500': errorResponse('payments', 'Internal server error while creating the notification.', payments.internal),
        '503': errorResponse(
          'payments',
          "The database cannot be reached or did not answer in time, or the vendor's stored schema can no longer be used until an operator replaces it.",
          payments.unavailable,
        ),
      },
    },
  },
  '/v1/list-clerks.php': partnerGet(
    {
      operationId: 'listClerks',
      summary: 'List clerks',
      description: "The key's partner's clerks, ordered by id. Partner and retail keys.",
      security: EITHER_KEY,
    },
    [],
    obj({ valid: { const: true }, clerks: arr(ref('Clerk')) }),
  ),
  '/v1/list-merchants.php': partnerGet(
    {
      operationId: 'listMerchants',
      summary: 'List merchants',
      description: "The key's partner's merchants, ordered by id. Partner and retail keys.",
      security: EITHER_KEY,
    },
    [],
    obj({ valid: { const: true }, merchants: arr(ref('Merchant')) }),
  ),
  '/v1/lookup-customer.php': partnerGet(
    {
      operationId: 'lookupCustomer',
      summary: 'Look up a customer',
      description:
        "customerLocator is tried as an IMEI (15 or 16 digits), a device tag, the customer's phone number, then the customer id. The order shown is the device's (IMEI or tag), else the customer's newest open order. Partner and retail keys.",
      security: EITHER_KEY,
    },
    [
      queryParam('customerLocator', 'Phone number, device tag, IMEI or customer id.'),
      queryParam('fields', 'Comma-separated extra fields; the only allowed value is device.description.', str(), false),
    ],
    ref('LookupCustomerResult'),
    { '404': errorResponse('partner', 'RESOURCE_NOT_FOUND: no customer of this partner matches.') },
  ),
  '/v1/lookup-cart.php': partnerGet(
    {
      operationId: 'lookupCart',
      summary: 'Look up a cart',
      description:
        'Customer fields are returned only when asked for in fields (customer is {} without). Partner keys only (retail keys: 403).',
      security: [{ partnerKey: [] }],
    },
    [
      queryParam('cartTag', 'The cart tag.'),
      queryParam(
        'fields',
        'Comma-separated: customer.id, customer.name, customer.phoneNumber, customer.email, customer.address, customer.nationalId, device.description.',
        str(),
        false,
      ),
    ],
    ref('LookupCartResult'),
    { '404': errorResponse('partner', 'RESOURCE_NOT_FOUND: no cart of this partner has that tag.') },
  ),
  '/v1/list-transactions.php': partnerGet(
    {
      operationId: 'listTransactions',
      summary: 'List transactions',
      description:
        'Transactions with starttime <= time < endtime (Unix seconds; at most 366 days), sorted by time, then id. filter=<path>:<value> may be repeated; all terms must match (e.g. type:cash, merchant.name:DEMO, financeOrder.id:4000004, device.imei:123456789012347). Partner keys only (retail keys: 403).',
      security: [{ partnerKey: [] }],
    },
    [
      queryParam('starttime', 'Start of the window, inclusive, Unix seconds.', int()),
      queryParam('endtime', 'End of the window, exclusive, Unix seconds.', int()),
      {
        name: 'filter',
        in: 'query',
        required: false,
        description: '<field path>:<value>; repeatable.',
        schema: arr(str()),
        style: 'form',
        explode: true,
      },
    ],
    obj({
      valid: { const: true },
      transactions: arr({
        oneOf: [
          ref('FinanceTransaction'),
          ref('CashTransaction'),
          ref('CommissionTransaction'),
          ref('AdjustmentTransaction'),
        ],
      }),
    }),
  ),
  '/v1/record-customer-payment.php': partnerGet(
    {
      operationId: 'recordCustomerPayment',
      summary: 'Record an in-store payment',
      description:
        'Creates the payment, a cash transaction and (when the partner earns commission) a commission transaction, in one database transaction. Retail keys only (partner keys: 403). Every answer carries Cache-Control: no-store. An optional Idempotency-Key header makes a retry safe: the same key with the same parameters replays the first answer (Idempotent-Replayed: true) and records nothing; with other parameters it is 409. Keys are kept at least 24 hours.',
      security: [{ retailKey: [] }],
    },
    [
      queryParam('merchantId', 'From List Merchants.', int()),
      queryParam('salesClerkId', 'From List Clerks.', int()),
      queryParam('financeOrderId', 'From Lookup Customer.', int()),
      queryParam(
        'amount',
        "More than zero, at most the remaining balance, with at most the currency's decimals.",
        decimalString('Decimal.'),
      ),
      queryParam('currency', "The order's ISO 4217 currency.", str()),
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: '1 to 255 printable ASCII characters.',
        schema: str(),
      },
    ],
    ref('RecordedPayment'),
    {
      '400': errorResponse(
        'partner',
        'MISSING_QUERY_PARAMETER, INVALID_QUERY_PARAMETER, INVALID_PAYMENT_AMOUNT, CURRENCY_MISMATCH, AMOUNT_EXCEEDS_BALANCE, or INVALID_ARGUMENT (a malformed Idempotency-Key header). Nothing is recorded.',
      ),
      '404': errorResponse(
        'partner',
        "RESOURCE_NOT_FOUND: the merchant, clerk or finance order is not the key's partner's.",
      ),
      '409': errorResponse('partner', 'IDEMPOTENCY_CONFLICT: the Idempotency-Key was used for different parameters.'),
    },
  ),
};
