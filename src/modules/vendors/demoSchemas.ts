// The request schemas of the demo data set's two payment vendors (demo-data.md): the seed stores them
// with the vendors, and the OpenAPI document shows the demo vendor's as the notification body.
const DEVICE_LOCATOR = ['deviceTag', 'imei', 'phoneNumber', 'financeOrderId'] as const;
const VENDOR_BASE_PROPERTIES = {
  paymentVendor: { type: 'string' },
  amount: {
    oneOf: [
      { type: 'number', exclusiveMinimum: 0 },
      { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?$' },
    ],
  },
  currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  reference: { type: 'string', minLength: 1, maxLength: 255 },
  deviceTag: { type: 'string', minLength: 1, maxLength: 64 },
  imei: { type: 'string', pattern: '^[0-9]{15,16}$' },
  phoneNumber: { type: 'string', minLength: 1, maxLength: 32 },
  financeOrderId: {
    oneOf: [
      { type: 'integer', minimum: 1 },
      { type: 'string', pattern: '^[0-9]+$' },
    ],
  },
};

// demo-vendor: amount, currency, reference, and exactly one way to find the device (oneOf: a body
// with two locators matches two branches, one with none matches none; both are refused).
export const DEMO_VENDOR_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: VENDOR_BASE_PROPERTIES,
  required: ['paymentVendor', 'amount', 'currency', 'reference'],
  oneOf: DEVICE_LOCATOR.map((field) => ({ required: [field] })),
};

// other-vendor: amount, currency, reference and deviceTag, all required.
export const OTHER_VENDOR_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: VENDOR_BASE_PROPERTIES,
  required: ['paymentVendor', 'amount', 'currency', 'reference', 'deviceTag'],
};
