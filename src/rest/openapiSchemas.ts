// The OpenAPI document's JSON Schemas, in one place: schema helpers, the bodies every door answers
// with (components.schemas), the bodies written in place where a route names them (inlineSchemas), and
// the error responses, each with the door's error body. Schemas are strict: every field required
// unless the contract says otherwise, and no field beyond those listed.
import type { Door } from '../http/errorResponses.js';

export type Schema = Record<string, unknown>;
/** Named OpenAPI Example Objects of one media type. */
export type Examples = Record<string, { summary: string; description?: string; value: unknown }>;

/** An OpenAPI Parameter Object (query parameters and headers; the example is a golden's). */
export interface Parameter {
  name: string;
  in: 'query' | 'header' | 'path';
  required: boolean;
  description: string;
  schema: Schema;
  style?: 'form';
  explode?: boolean;
  example?: unknown;
}

export const str = (description?: string): Schema => ({ type: 'string', ...(description ? { description } : {}) });
export const int = (description?: string): Schema => ({ type: 'integer', ...(description ? { description } : {}) });
export const num = (description?: string): Schema => ({ type: 'number', ...(description ? { description } : {}) });
export const bool: Schema = { type: 'boolean' };
export const decimalString = (description: string): Schema => ({
  type: 'string',
  pattern: '^-?[0-9]+(\\.[0-9]+)?$',
  description,
});
export const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type, 'null'] });
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const arr = (items: Schema): Schema => ({ type: 'array', items });

/** An object with exactly these properties, all required except those named optional. */
export function obj(properties: Record<string, Schema>, optional: readonly string[] = []): Schema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    additionalProperties: false,
  };
}

export const jsonContent = (schema: Schema, examples?: Examples) => ({
  'application/json': { schema, ...(examples ? { examples } : {}) },
});

const requestIdHeader = {
  'X-Request-ID': { description: 'The request id (an incoming well-formed one is echoed).', schema: str() },
};
const retryAfterHeader = {
  'Retry-After': {
    description: 'Whole seconds until a request will be accepted.',
    schema: { type: 'integer', minimum: 1 },
  },
};
// draft-ietf-httpapi-ratelimit-headers: on every answer to a request whose key was accepted.
const rateLimitHeaders = {
  'RateLimit-Policy': {
    description: 'The API key\'s quota: "default";q=<RATE_LIMIT_REQUESTS>;w=<RATE_LIMIT_WINDOW_SECONDS>.',
    schema: str(),
  },
  RateLimit: {
    description: 'What is left of it: "default";r=<requests left>;t=<seconds until the window ends>.',
    schema: str(),
  },
};
export const successHeaders = { ...requestIdHeader, ...rateLimitHeaders };
export const RATE_LIMITED =
  'RATE_LIMITED: the API key made more requests than its limit in the window (RATE_LIMIT_REQUESTS per RATE_LIMIT_WINDOW_SECONDS), or the client address failed authentication too often (AUTH_FAILURE_LIMIT per AUTH_FAILURE_WINDOW_SECONDS; its credentials are then refused unread). Retry after Retry-After seconds.';

/** The error body each door answers with (src/http/errorResponses.ts). */
const ERROR_BODY: Record<Door, string> = {
  partner: 'PartnerError',
  payments: 'PaymentsError',
  graphql: 'GraphQLResponse',
  // The device door answers errors in the payments interface's shape (decisions.md 19).
  devices: 'PaymentsError',
  // And the report files' (decisions.md 45).
  reports: 'PaymentsError',
};

/** An error response in the body of `door`; examples are the goldens' (openapiExamples.ts) plus `examples`. */
export const errorResponse = (door: Door, description: string, examples?: Examples) => ({
  description,
  content: jsonContent(ref(ERROR_BODY[door]), examples),
});

/** 429, with when to come back and (for a key's quota) the RateLimit headers. */
export const rateLimitedResponse = (door: Door, description: string, examples?: Examples) => ({
  ...errorResponse(door, description, examples),
  headers: { ...retryAfterHeader, ...rateLimitHeaders },
});

const moneyNumber = (what: string) => num(`${what}, in the currency's units (exact decimal printed as a JSON number).`);
const idInteger = int('Identifier.');
const family = obj({ id: int(), name: str() });
const model = obj({ id: int(), makeModel: str(), name: str() });

/** lookup-customer's financeOrder object, also the data of the finance_order.* events (openapiWebhooks.ts). */
export const legacyFinanceOrder = obj({
  currency: str(),
  downPayment: moneyNumber('Down payment'),
  financeAmount: moneyNumber('Financed amount'),
  id: int(),
  monthlyCost: moneyNumber('Monthly cost'),
  months: int(),
  pricePreTax: moneyNumber('Price before tax'),
  purchaseAmount: moneyNumber('Purchase amount'),
  remainingBalance: moneyNumber('Still to pay'),
  time: int('Unix timestamp of the order.'),
  weeklyCost: moneyNumber('Weekly cost'),
});

export const schemas: Record<string, Schema> = {
  PartnerError: obj({
    valid: { const: false },
    message: str('The same text as error.message, for clients that read only valid/message.'),
    error: obj({
      code: str('A stable code: see the error table in docs/integrating.md (Errors).'),
      message: str('What was wrong, naming the parameter.'),
    }),
  }),
  PaymentsError: obj({
    error: obj({
      code: str(
        "A stable code (the same as the partner interface and GraphQL use): see the error table in docs/integrating.md (Errors). An addition to the contract's { error: { message } }.",
      ),
      message: str('What was wrong, e.g. that paymentVendor is a required field.'),
    }),
  }),
  Clerk: obj({
    id: str(),
    personUuid: { type: 'string', format: 'uuid' },
    name: str(),
    phoneNumber: str(),
    email: str(),
  }),
  Merchant: obj({
    id: str(),
    name: str(),
    address: obj({
      street: str(),
      street2: nullable(str()),
      city: str(),
      state: str(),
      postalCode: str('May be empty.'),
      country: str('ISO 3166-1 alpha-2.'),
    }),
    phoneNumber: str(),
  }),
  LookupCustomerResult: obj({
    valid: { const: true },
    customer: obj({ id: int() }),
    device: nullable(
      obj(
        {
          validThrough: nullable(int('Unix timestamp: the lock activates then unless a payment arrives.')),
          family,
          imei: str(),
          model,
          simNumber: nullable(str('Null when not on record.')),
          lastSeen: nullable(int('Unix timestamp; null when the device never reported in.')),
          secureStatus: str('"Device Active And Secured", "Device Locked" or "Device Released".'),
          description: nullable(str('Only with fields=device.description.')),
        },
        ['description'],
      ),
    ),
    financeOrder: nullable(legacyFinanceOrder),
    paymentHistory: arr(
      obj({
        amount: decimalString('Decimal with the currency\'s places, e.g. "18.00".'),
        currency: str(),
        timestamp: { type: 'string', pattern: '^[0-9]+$', description: 'Unix timestamp, as a string.' },
      }),
    ),
    paymentOptions: arr(
      obj({ amount: moneyNumber('Amount'), currency: str(), type: { enum: ['full', 'month', 'week'] } }),
    ),
  }),
  LookupCartResult: obj({
    valid: { const: true },
    customer: obj(
      {
        id: str(),
        name: str(),
        phoneNumber: str(),
        email: nullable(str()),
        address: nullable(str()),
        nationalId: nullable(str()),
      },
      ['id', 'name', 'phoneNumber', 'email', 'address', 'nationalId'],
    ),
    cart: obj({
      cartTag: str(),
      purchaseAmount: decimalString('Decimal string.'),
      financeAmount: decimalString('Decimal string.'),
      downPayment: decimalString('Decimal string.'),
      pricePreTax: num('A number.'),
      monthlyCost: decimalString('Decimal string.'),
      weeklyCost: decimalString('Decimal string.'),
      months: { type: 'string', pattern: '^[0-9]+$', description: 'Integer text.' },
      currency: str(),
    }),
    device: obj(
      { family: str(), makeModel: str(), description: nullable(str('Only with fields=device.description.')) },
      ['description'],
    ),
  }),
  FinanceTransaction: obj({
    type: { const: 'finance' },
    time: int(),
    amount: num('+financeAmount.'),
    currency: str(),
    merchant: obj({ id: int(), name: str() }),
    financeOrder: obj({
      id: int(),
      purchaseAmount: num(),
      financeAmount: num(),
      downPayment: num(),
      pricePreTax: num(),
      monthlyCost: num(),
      weeklyCost: num(),
      months: int(),
    }),
    salesClerk: obj({ id: int(), name: str() }),
    device: obj({ phoneNumber: nullable(str()), simNumber: nullable(str()), imei: str(), family, model }),
  }),
  CashTransaction: obj({
    type: { const: 'cash' },
    time: int(),
    amount: num('Minus the payment.'),
    currency: str(),
    merchant: obj({ id: int(), name: str() }),
    payment: obj({ id: int(), timestamp: int(), amount: num() }),
    financeOrder: obj({ id: int() }),
    salesClerk: obj({ id: int(), name: str() }),
  }),
  CommissionTransaction: obj({
    type: { const: 'commission' },
    time: int(),
    amount: num(),
    currency: str(),
    merchant: obj({ id: int(), name: str() }),
    payment: obj({ id: int(), timestamp: int(), amount: num() }),
    financeOrder: obj({ id: int() }),
  }),
  AdjustmentTransaction: obj({
    type: { const: 'adjustment' },
    time: int(),
    amount: num('Signed.'),
    currency: str(),
    merchant: obj({ id: int(), name: str() }),
    adjustment: obj({ id: int(), type: { enum: ['payment', 'commission'] }, notes: str() }),
  }),
  RecordedPayment: obj({
    valid: { const: true },
    payment: obj({
      id: idInteger,
      time: int('Unix timestamp of recording.'),
      deviceTag: str(),
      remainingBalance: num(),
      currency: str(),
      nextPayment: nullable(int('Unix timestamp at which the lock activates without a payment; null once fully paid.')),
      fullyPaid: bool,
    }),
  }),
  AccessToken: obj({
    data: obj({
      access_token: str(),
      token_type: { const: 'Bearer' },
      expires_in: int('Seconds until the token expires.'),
    }),
  }),
  NotificationAccepted: obj({
    data: obj(
      {
        message: str(),
        paymentId: int(),
        remainingBalance: num(),
        currency: str(),
        fullyPaid: bool,
        unlockCode: {
          type: 'string',
          pattern: '^[0-9]{15}$',
          description:
            'The offline unlock code the customer types on the device (decisions.md 21): present only when the device has a credential.',
        },
      },
      ['unlockCode'],
    ),
  }),
  ReversalAccepted: obj({
    data: obj({
      message: str("payment <paymentId> of <amount with the currency's places> <currency> reversed for device <tag>"),
      paymentId: int('The payment reversed.'),
      reversalId: int('The reversal: a payment has at most one.'),
      remainingBalance: num('What the order owes after the reversal.'),
      currency: str(),
      fullyPaid: bool,
    }),
  }),
  RepaymentOptions: obj({
    data: obj({
      deviceTag: str(),
      financeOrderId: int('The order a notification naming the device would pay.'),
      currency: str("The order's currency: every amount is in it."),
      minimumPaymentAmount: decimalString(
        'The least amount that buys a day of use (with flexible amounts), or the least amount taken (without).',
      ),
      fullPayoffAmount: decimalString('The remaining balance.'),
      flexibleAmountEnabled: bool,
      lockAt: int('Unix seconds: when the device locks if nothing more is paid.'),
      options: arr(
        obj({
          daysPaid: int('The days of use the amount buys.'),
          amount: decimalString('The cheapest amount buying them (at most the balance).'),
        }),
      ),
    }),
  }),
  GraphQLRequest: {
    type: 'object',
    properties: {
      query: str('The GraphQL document (schema/*.graphql describes the graph; introspection needs a key).'),
      variables: { type: ['object', 'null'], description: "The operation's variables." },
      operationName: { type: ['string', 'null'], description: 'Which operation of the document to run.' },
      extensions: { type: 'object', description: 'Protocol extensions (Apollo).' },
    },
    required: ['query'],
    additionalProperties: false,
  },
  GraphQLResponse: {
    type: 'object',
    description:
      'GraphQL over HTTP: data (absent when the request was refused before it ran), and errors, each with extensions.code from the error table.',
    properties: {
      data: { type: ['object', 'null'] },
      errors: arr({
        type: 'object',
        properties: {
          message: str(),
          locations: arr(obj({ line: int(), column: int() })),
          path: arr({ type: ['string', 'integer'] }),
          extensions: {
            type: 'object',
            properties: { code: str('A stable code: see the error table in docs/integrating.md (Errors).') },
            required: ['code'],
            additionalProperties: {
              description:
                "Some codes' details: retryAfter (RATE_LIMITED), errorId (INTERNAL_SERVER_ERROR, SERVICE_UNAVAILABLE), problems (INVALID_NOTIFICATION), argument and problem (INVALID_ARGUMENT), parameter, expected, resource.",
            },
          },
        },
        required: ['message', 'extensions'],
      }),
    },
    additionalProperties: false,
  },
  Liveness: obj({ status: { const: 'ok' } }),
  Readiness: obj(
    {
      status: { enum: ['ready', 'not ready', 'draining'] },
      database: { enum: ['ok', 'unreachable'] },
      migrations: str('"current", "unknown", or "pending: <names>".'),
      rateLimitStore: str(
        'Where the request limits are counted: "shared (postgres)", "shared (redis)", "memory" (embedded database), or "insurance (...)" while the shared store fails.',
      ),
      replica: str('The read replica: "ok", "lagging <n> s", "down", or "none".'),
    },
    ['rateLimitStore'],
  ),
};

/**
 * Bodies written in place where a route (rest/routes.ts, its doc) names them, not in components: the
 * request bodies and the lists' envelopes. `notification`: a vendor's stored request schema, given by
 * the build (the demo vendor's, src/fixtures/vendorSchemas.ts), as the golden files are.
 */
function inlineSchemas(notification: Schema): Record<string, Schema> {
  // Without its $schema: the document's dialect is 2020-12 already.
  const { $schema: _dialect, ...vendorBody } = notification;
  return {
    ReversalRequest: obj({
      paymentVendor: str("The vendor's agreed name: the access token's vendor."),
      reference: str('The reference of the notification that made the payment (1 to 255 characters).'),
      reason: str('Why it is reversed, 1 to 500 characters: kept with the reversal.'),
    }),
    AccessTokenRequest: obj({ apiKey: str('The private API key: a vendor key (demo: demo-vendor-key).') }),
    /** The notification body: the demo vendor's request schema, as the seed stores it with the vendor. */
    Notification: {
      ...vendorBody,
      // The service's own member, beside every vendor's (decisions.md 17): taken out before the vendor's schema runs.
      properties: {
        ...(vendorBody.properties as Record<string, Schema>),
        paymentReference: {
          type: 'string',
          minLength: 1,
          maxLength: 64,
          description:
            "The service's own member, accepted beside any vendor's schema: the code of a payment reference the customer read out (9 characters of Crockford's base32; case, spaces and hyphens ignored). The payment must be exactly its amount and currency (else 400 AMOUNT_MISMATCH, which names neither); it is paid once (409 PAYMENT_REFERENCE_ALREADY_PAID), not after it expires (409 PAYMENT_REFERENCE_EXPIRED), and not when unknown or cancelled (404 PAYMENT_REFERENCE_NOT_FOUND). Unknown and mismatched references are counted per API key: past PAYMENT_REFERENCE_FAILURE_LIMIT (20) a minute, 429 RATE_LIMITED for every notification quoting one until Retry-After. It names the finance order, so no device locator is needed beside it; one given must name the same order.",
        },
      },
      description:
        "Each vendor's body is described by a JSON Schema agreed when its integration is set up and stored with the vendor (paymentVendor is the only field every vendor sends). This is demo-vendor's: amount (a positive number or a decimal string), currency (ISO 4217), reference (1 to 255 characters, the vendor's idempotency key), and exactly one of deviceTag, imei, phoneNumber, financeOrderId to find the finance order. other-vendor's requires deviceTag instead. Any vendor may add paymentReference, the service's own member, to pay a payment reference.",
    },
    ClerkList: obj({ valid: { const: true }, clerks: arr(ref('Clerk')) }),
    MerchantList: obj({ valid: { const: true }, merchants: arr(ref('Merchant')) }),
    TransactionList: obj({
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
  };
}

/** The schema a route names: a reference into components.schemas, or an inline body (see inlineSchemas). */
export function namedSchema(name: string, notification: Schema): Schema {
  if (Object.hasOwn(schemas, name)) return ref(name);
  const inline = inlineSchemas(notification);
  if (!Object.hasOwn(inline, name)) throw new Error(`no schema ${name} in rest/openapiSchemas.ts`);
  return inline[name]!;
}

/** A query parameter's schema, by what its parser reads (rest/params.ts). */
export const PARAM_SCHEMAS: Record<'text' | 'integer' | 'decimal', Schema> = {
  text: str(),
  integer: int(),
  decimal: decimalString('Decimal.'),
};
