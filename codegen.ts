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
        mappers: {
          Viewer: '../modules/auth/principal.js#Principal',
          Partner: '../modules/partners/rows.js#PartnerRow',
          Merchant: '../modules/merchants/rows.js#MerchantRow',
          Address: '../modules/merchants/rows.js#MerchantRow',
          Clerk: '../modules/clerks/rows.js#ClerkRow',
        },
      },
    },
    'src/__generated__/operations.ts': {
      plugins: ['typescript', 'typescript-operations'],
      config: { useTypeImports: true, enumsAsTypes: true, skipTypename: true, onlyOperationTypes: true },
    },
  },
};

export default config;
