// The OpenAPI 3.1 document of the legacy contract: all eight endpoints, their parameters, bodies and
// every error. Served at GET /openapi.json and kept in the repo as openapi.json (a test keeps the two
// equal). Every golden test validates its response against it, so the document cannot drift from
// the code. Schemas are strict: every field required unless the contract says otherwise, and no
// field beyond those listed.

type Schema = Record<string, unknown>;

const str = (description?: string): Schema => ({ type: 'string', ...(description ? { description } : {}) });
const int = (description?: string): Schema => ({ type: 'integer', ...(description ? { description } : {}) });
const num = (description?: string): Schema => ({ type: 'number', ...(description ? { description } : {}) });
const bool: Schema = { type: 'boolean' };
const decimalString = (description: string): Schema => ({
  type: 'string',
  pattern: '^-?[0-9]+(\\.[0-9]+)?$',
  description,
});
const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type, 'null'] });
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const arr = (items: Schema): Schema => ({ type: 'array', items });

/** An object with exactly these properties, all required except those named optional. */
function obj(properties: Record<string, Schema>, optional: readonly string[] = []): Schema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    additionalProperties: false,
  };
}

const jsonContent = (schema: Schema) => ({ 'application/json': { schema } });
const partnerError = (description: string) => ({ description, content: jsonContent(ref('PartnerError')) });
const paymentsError = (description: string) => ({ description, content: jsonContent(ref('PaymentsError')) });
const requestIdHeader = {
  'X-Request-ID': { description: 'The request id (an incoming well-formed one is echoed).', schema: str() },
};
const retryAfterHeader = {
  'Retry-After': {
    description: 'Whole seconds until a request will be accepted.',
    schema: { type: 'integer', minimum: 1 },
  },
};
const RATE_LIMITED =
  'RATE_LIMITED: the API key made more requests than its limit in the window (RATE_LIMIT_REQUESTS per RATE_LIMIT_WINDOW_SECONDS), or the client address failed authentication too often (AUTH_FAILURE_LIMIT per AUTH_FAILURE_WINDOW_SECONDS; its credentials are then refused unread). Retry after Retry-After seconds.';
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
const successHeaders = { ...requestIdHeader, ...rateLimitHeaders };
const rateLimited = (error: (description: string) => Record<string, unknown>) => ({
  ...error(RATE_LIMITED),
  headers: { ...retryAfterHeader, ...rateLimitHeaders },
});

const queryParam = (name: string, description: string, schema: Schema = str(), required = true) => ({
  name,
  in: 'query',
  required,
  description,
  schema,
});

const KEY_PARAM = queryParam('key', 'The partner API key (partner or retail key, as the endpoint allows).');

/** The errors every partner endpoint can answer. */
const PARTNER_ERRORS = {
  '400': partnerError(
    'MISSING_QUERY_PARAMETER or INVALID_QUERY_PARAMETER (a malformed value, or a parameter given more than once), or a refusal named by its code.',
  ),
  '401': partnerError('MISSING_API_KEY or INVALID_API_KEY (unknown, revoked or expired: one answer for all).'),
  '403': partnerError('FORBIDDEN: a valid key of a kind this endpoint does not take.'),
  '405': partnerError('METHOD_NOT_ALLOWED: this path takes another method (see the Allow header).'),
  '414': partnerError('URI_TOO_LONG: the query string is longer than 8 KiB (8192 bytes).'),
  '429': rateLimited(partnerError),
  '500': partnerError('INTERNAL_SERVER_ERROR: the message carries an error id; the detail is in the service log.'),
  '503': partnerError('SERVICE_UNAVAILABLE: the database cannot be reached or did not answer in time; retry shortly.'),
};

function partnerGet(
  summary: string,
  description: string,
  parameters: unknown[],
  success: Schema,
  extra: Record<string, unknown> = {},
) {
  return {
    get: {
      summary,
      description,
      security: [{ partnerKey: [] }],
      parameters: [KEY_PARAM, ...parameters],
      responses: {
        '200': { description: 'Success.', headers: successHeaders, content: jsonContent(success) },
        ...PARTNER_ERRORS,
        ...extra,
      },
    },
  };
}

const moneyNumber = (what: string) => num(`${what}, in the currency's units (exact decimal printed as a JSON number).`);
const idInteger = int('Identifier.');
const family = obj({ id: int(), name: str() });
const model = obj({ id: int(), makeModel: str(), name: str() });

const schemas: Record<string, Schema> = {
  PartnerError: obj({
    valid: { const: false },
    message: str('The same text as error.message, for clients that read only valid/message.'),
    error: obj({
      code: str('A stable code: see the error table in the README.'),
      message: str('What was wrong, naming the parameter.'),
    }),
  }),
  PaymentsError: obj({
    error: obj({
      code: str(
        "A stable code (the same as the partner interface and GraphQL use): see the error table in the README. An addition to the contract's { error: { message } }.",
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
    financeOrder: nullable(
      obj({
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
      }),
    ),
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
    data: obj({ message: str(), paymentId: int(), remainingBalance: num(), currency: str(), fullyPaid: bool }),
  }),
};

export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Device-financing service: legacy REST contract',
    version: '1.0.0',
    description:
      'The payments interface (/payments/v1) and the partner query interface (/v1). Every response carries X-Request-ID; every answer to a request whose API key (or access token) was accepted carries RateLimit-Policy and RateLimit. Partner errors: { valid: false, message, error: { code, message } }; payments errors: { error: { code, message } }.',
  },
  servers: [{ url: 'http://localhost:4000' }],
  components: {
    securitySchemes: {
      partnerKey: { type: 'apiKey', in: 'query', name: 'key' },
      accessToken: { type: 'http', scheme: 'bearer', description: 'An access token from POST /payments/v1/token.' },
    },
    schemas,
  },
  paths: {
    '/payments/v1/token': {
      post: {
        summary: 'Create an access token',
        description: 'Trades a vendor (or operator) API key for a bearer access token (default lifetime 3600 s).',
        requestBody: { required: true, content: jsonContent(obj({ apiKey: str('The private API key.') })) },
        responses: {
          '200': { description: 'The token.', headers: successHeaders, content: jsonContent(ref('AccessToken')) },
          '400': paymentsError(
            'The body is not a JSON object, is malformed, not UTF-8 or too large, names a member twice in one object, or apiKey is not a string.',
          ),
          '401': paymentsError(
            'The action is not authorized: the key is missing, invalid, revoked or expired, or cannot buy tokens.',
          ),
          '405': paymentsError('Another method than POST.'),
          '414': paymentsError('The query string is longer than 8 KiB (8192 bytes).'),
          '415': paymentsError('The body is not sent as application/json.'),
          '429': rateLimited(paymentsError),
          '500': paymentsError('Internal server error.'),
          '503': paymentsError('The database cannot be reached or did not answer in time.'),
        },
      },
    },
    '/payments/v1/notification': {
      post: {
        summary: 'Create a payment notification',
        description:
          "A vendor tells the service of a payment it collected. The body must satisfy the vendor's stored JSON Schema (demo-vendor: amount, currency, reference, and exactly one of deviceTag, imei, phoneNumber, financeOrderId). Before the schema, the service holds its own limits whatever the schema allows: at most 32 levels of nesting, 1000 values, strings and member names of at most 1000 characters (reference 255, deviceTag, imei, phoneNumber and financeOrderId 64). The vendor's reference is its idempotency key: a repeat with the same body replays the first answer (Idempotent-Replayed: true); with another body it is 409. Bodies are compared with the amount by value in the currency's minor units (19, 19.00 and \"19.00\" are one amount) and member order ignored. A JSON number is read as written, never rounded: an amount with more decimals than the currency has (18.999999999999999 USD) is refused. A member name given twice in one object is refused (400).",
        security: [{ accessToken: [] }],
        requestBody: {
          required: true,
          content: jsonContent({
            type: 'object',
            required: ['paymentVendor'],
            properties: { paymentVendor: str('The name agreed for the integration.') },
          }),
        },
        responses: {
          '200': {
            description: 'Recorded (or replayed).',
            headers: successHeaders,
            content: jsonContent(ref('NotificationAccepted')),
          },
          '400': paymentsError(
            'The body is malformed, not UTF-8, too large, nests more than 32 levels or names a member twice in one object; the notification is not valid (it names the problem, e.g. that paymentVendor is a required field, or a string over its length limit); or the amount is refused (not positive, too many decimals, other currency, above the balance).',
          ),
          '401': paymentsError('The access token is missing, malformed, tampered, expired, or its key was revoked.'),
          '403': paymentsError(
            "paymentVendor is not the token's vendor, the vendor is disabled, or the credential is not a vendor's.",
          ),
          '404': paymentsError('No device, customer or finance order matches the notification.'),
          '405': paymentsError('Another method than POST.'),
          '409': paymentsError('The reference was already used for a different notification.'),
          '414': paymentsError('The query string is longer than 8 KiB (8192 bytes).'),
          '415': paymentsError('The body is not sent as application/json.'),
          '429': rateLimited(paymentsError),
          '500': paymentsError('Internal server error while creating the notification.'),
          '503': paymentsError(
            "The database cannot be reached or did not answer in time, or the vendor's stored schema can no longer be used until an operator replaces it.",
          ),
        },
      },
    },
    '/v1/list-clerks.php': partnerGet(
      'List clerks',
      "The key's partner's clerks, ordered by id. Partner and retail keys.",
      [],
      obj({ valid: { const: true }, clerks: arr(ref('Clerk')) }),
    ),
    '/v1/list-merchants.php': partnerGet(
      'List merchants',
      "The key's partner's merchants, ordered by id. Partner and retail keys.",
      [],
      obj({ valid: { const: true }, merchants: arr(ref('Merchant')) }),
    ),
    '/v1/lookup-customer.php': partnerGet(
      'Look up a customer',
      "customerLocator is tried as an IMEI (15 or 16 digits), a device tag, the customer's phone number, then the customer id. The order shown is the device's (IMEI or tag), else the customer's newest open order. Partner and retail keys.",
      [
        queryParam('customerLocator', 'Phone number, device tag, IMEI or customer id.'),
        queryParam(
          'fields',
          'Comma-separated extra fields; the only allowed value is device.description.',
          str(),
          false,
        ),
      ],
      ref('LookupCustomerResult'),
      { '404': partnerError('RESOURCE_NOT_FOUND: no customer of this partner matches.') },
    ),
    '/v1/lookup-cart.php': partnerGet(
      'Look up a cart',
      'Customer fields are returned only when asked for in fields (customer is {} without). Partner keys only (retail keys: 403).',
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
      { '404': partnerError('RESOURCE_NOT_FOUND: no cart of this partner has that tag.') },
    ),
    '/v1/list-transactions.php': partnerGet(
      'List transactions',
      'Transactions with starttime <= time < endtime (Unix seconds; at most 366 days), sorted by time, then id. filter=<path>:<value> may be repeated; all terms must match (e.g. type:cash, merchant.name:DEMO, financeOrder.id:4000004, device.imei:123456789012347). Partner keys only (retail keys: 403).',
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
      'Record an in-store payment',
      'Creates the payment, a cash transaction and (when the partner earns commission) a commission transaction, in one database transaction. Retail keys only (partner keys: 403). Every answer carries Cache-Control: no-store. An optional Idempotency-Key header makes a retry safe: the same key with the same parameters replays the first answer (Idempotent-Replayed: true) and records nothing; with other parameters it is 409. Keys are kept at least 24 hours.',
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
        '400': partnerError(
          'MISSING_QUERY_PARAMETER, INVALID_QUERY_PARAMETER, INVALID_PAYMENT_AMOUNT, CURRENCY_MISMATCH, AMOUNT_EXCEEDS_BALANCE, or INVALID_ARGUMENT (a malformed Idempotency-Key header). Nothing is recorded.',
        ),
        '404': partnerError("RESOURCE_NOT_FOUND: the merchant, clerk or finance order is not the key's partner's."),
        '409': partnerError('IDEMPOTENCY_CONFLICT: the Idempotency-Key was used for different parameters.'),
      },
    ),
  },
};
