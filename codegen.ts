// Types generated from the SDL: resolver signatures bound to our row types (mappers), and the data
// shapes of the REST shim's handwritten operations. `npm run codegen:check` fails CI on any drift.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema/*.graphql',
  documents: 'src/rest/operations/*.graphql',
  emitLegacyCommonJSImports: false,
  generates: {
    'src/__generated__/resolvers.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        useIndexSignature: false,
        contextType: '../context.js#Context',
        scalars: {
          Decimal: 'string',
          Timestamp: { input: 'number', output: 'Date | number' },
          CurrencyCode: 'string',
          JSON: 'unknown',
        },
        mappers: {
          Viewer: '../modules/auth/principal.js#Principal',
          ApiKey: '../modules/auth/rows.js#ApiKeyRow',
          CreatedApiKey: '../modules/auth/rows.js#CreatedApiKeyParent',
          AccessToken: '../modules/auth/rows.js#AccessTokenParent',
          Partner: '../modules/partners/rows.js#PartnerRow',
          Merchant: '../modules/merchants/rows.js#MerchantRow',
          Address: '../modules/merchants/rows.js#MerchantRow',
          Clerk: '../modules/clerks/rows.js#ClerkRow',
          PageInfo: '../modules/pages.js#PageInfoParent',
          Customer: '../modules/customers/rows.js#CustomerParent',
          CustomerEdge: '../modules/customers/rows.js#CustomerEdgeParent',
          CustomerConnection: '../modules/customers/rows.js#CustomerConnectionParent',
          Device: '../modules/devices/rows.js#DeviceRow',
          DeviceFamily: '../modules/devices/rows.js#DeviceFamilyRow',
          DeviceModel: '../modules/devices/rows.js#DeviceModelRow',
          Cart: '../modules/carts/rows.js#CartRow',
          FinanceOrder: '../modules/financeOrders/rows.js#FinanceOrderRow',
          FinanceOrderEdge: '../modules/financeOrders/rows.js#FinanceOrderEdgeParent',
          FinanceOrderConnection: '../modules/financeOrders/rows.js#FinanceOrderConnectionParent',
          PaymentOption: '../modules/financeOrders/rows.js#PaymentOptionParent',
          Installment: '../modules/financeOrders/rows.js#InstallmentParent',
          Payment: '../modules/payments/rows.js#PaymentRow',
          PaymentReceipt: '../modules/payments/rows.js#PaymentReceiptParent',
          PaymentNotificationResult: '../modules/payments/rows.js#PaymentNotificationParent',
          PaymentVendor: '../modules/vendors/rows.js#PaymentVendorRow',
          Transaction: '../modules/transactions/rows.js#TransactionRow',
          FinanceTransaction: '../modules/transactions/rows.js#TransactionRow',
          CashTransaction: '../modules/transactions/rows.js#TransactionRow',
          CommissionTransaction: '../modules/transactions/rows.js#TransactionRow',
          AdjustmentTransaction: '../modules/transactions/rows.js#TransactionRow',
          TransactionEdge: '../modules/transactions/rows.js#ListedTransactionRow',
          TransactionConnection: '../modules/transactions/rows.js#TransactionConnectionParent',
          Adjustment: '../modules/transactions/rows.js#AdjustmentRow',
          AuditEvent: '../modules/audit/rows.js#AuditEventRow',
          AuditEventEdge: '../modules/audit/rows.js#AuditEventEdgeParent',
          AuditEventConnection: '../modules/audit/rows.js#AuditEventPage',
          Event: '../modules/events/rows.js#EventRow',
          EventEdge: '../modules/events/rows.js#EventEdgeParent',
          EventConnection: '../modules/events/rows.js#EventPage',
          WebhookEndpoint: '../modules/webhooks/rows.js#WebhookEndpointRow',
          WebhookEndpointSecret: '../modules/webhooks/rows.js#WebhookEndpointSecretParent',
          WebhookDelivery: '../modules/webhooks/rows.js#WebhookDeliveryRow',
          DeliveryAttempt: '../modules/webhooks/rows.js#WebhookAttemptRow',
        },
      },
    },
    'src/__generated__/operations.ts': {
      // typescript-operations emits the enums and input types the operations use by itself.
      plugins: ['typescript-operations'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        skipTypename: true,
        onlyOperationTypes: true,
        scalars: { Decimal: 'string', Timestamp: 'number', CurrencyCode: 'string', JSON: 'unknown' },
      },
    },
  },
};

export default config;
