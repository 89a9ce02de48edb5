// The schema linter (npm run lint:schema): ESLint runs only over schema/*.graphql, with the rules of
// @graphql-eslint listed one by one (the README's GraphQL section gives the reasons for each choice).
// Biome lints and formats the TypeScript; ESLint is here for the SDL alone.
import graphql from '@graphql-eslint/eslint-plugin';

/** Types that are values, not entities: no id of their own (strict-id-in-types). */
const VALUE_TYPES = [
  'AccessToken',
  'Address',
  'CreatedApiKey',
  'DeliveryAttempt',
  'DeviceCheckin',
  'DeviceRepayment',
  'Installment',
  'IssuedDeviceCredential',
  'PageInfo',
  'PaymentNotificationResult',
  'PaymentOption',
  'PartnerSettings',
  'PaymentReceipt',
  // The book's figures: values as of a moment (decisions.md 45).
  'PortfolioAgeing',
  'PortfolioAgeingBucket',
  'PortfolioHistoryPoint',
  'PortfolioMetrics',
  'SandboxClock',
  'Repayment',
  'RepaymentOption',
  'RevokedDeviceCredential',
  'Viewer',
  'WebhookEndpointSecret',
];

export default [
  {
    files: ['schema/**/*.graphql'],
    languageOptions: {
      parser: graphql.parser,
      // The whole schema, for the rules that look across files (reachability, relay shapes, type names).
      parserOptions: { graphQLConfig: { schema: 'schema/*.graphql' } },
    },
    plugins: { '@graphql-eslint': graphql },
    rules: {
      // Descriptions: every type, field, argument, input field, enum value and directive.
      '@graphql-eslint/require-description': [
        'error',
        {
          types: true,
          rootField: true,
          FieldDefinition: true,
          InputValueDefinition: true,
          EnumValueDefinition: true,
          DirectiveDefinition: true,
        },
      ],
      '@graphql-eslint/no-hashtag-description': 'error',
      '@graphql-eslint/require-deprecation-reason': 'error',

      // Naming: PascalCase types, camelCase fields and arguments, UPPER_CASE enum values; no "get"
      // or "Query" on query fields, no kind words (Type, Enum, Interface) in type names.
      '@graphql-eslint/naming-convention': [
        'error',
        {
          types: 'PascalCase',
          FieldDefinition: 'camelCase',
          InputValueDefinition: 'camelCase',
          Argument: 'camelCase',
          DirectiveDefinition: 'camelCase',
          EnumValueDefinition: 'UPPER_CASE',
          'FieldDefinition[parent.name.value=Query]': {
            forbiddenPrefixes: ['query', 'get'],
            forbiddenSuffixes: ['Query'],
          },
          'FieldDefinition[parent.name.value=Mutation]': {
            forbiddenPrefixes: ['mutation'],
            forbiddenSuffixes: ['Mutation'],
          },
          'FieldDefinition[parent.name.value=Subscription]': {
            forbiddenPrefixes: ['subscription'],
            forbiddenSuffixes: ['Subscription'],
          },
          'EnumTypeDefinition,EnumTypeExtension': { forbiddenPrefixes: ['Enum'], forbiddenSuffixes: ['Enum'] },
          'InterfaceTypeDefinition,InterfaceTypeExtension': {
            forbiddenPrefixes: ['Interface'],
            forbiddenSuffixes: ['Interface'],
          },
          'UnionTypeDefinition,UnionTypeExtension': { forbiddenPrefixes: ['Union'], forbiddenSuffixes: ['Union'] },
          'ObjectTypeDefinition,ObjectTypeExtension': { forbiddenPrefixes: ['Type'], forbiddenSuffixes: ['Type'] },
        },
      ],

      // Relay cursor connections: *Connection has edges (a list of *Edge), nodes beside them is allowed,
      // pageInfo: PageInfo!; *Edge has cursor and node; PageInfo has all four fields; a connection
      // field takes first and after. Forward only (includeBoth: false): no connection takes last/before.
      // No Node interface (ids are per type, there is no node(id) refetch), and plain bounded lists
      // (a family's models, pages of clerks by id, a connection's nodes) stay lists.
      '@graphql-eslint/relay-connection-types': 'error',
      '@graphql-eslint/relay-edge-types': [
        'error',
        { withEdgeSuffix: true, shouldImplementNode: false, listTypeCanWrapOnlyEdgeType: false },
      ],
      '@graphql-eslint/relay-page-info': 'error',
      '@graphql-eslint/relay-arguments': ['error', { includeBoth: false }],

      // Every type is reachable from a root; every entity type has `id: ID!` (value types excepted).
      '@graphql-eslint/no-unreachable-types': 'error',
      '@graphql-eslint/strict-id-in-types': [
        'error',
        { exceptions: { types: VALUE_TYPES, suffixes: ['Connection', 'Edge'] } },
      ],

      // What graphql-js would refuse when the schema is built, said here with the file and line.
      '@graphql-eslint/known-argument-names': 'error',
      '@graphql-eslint/known-directives': 'error',
      '@graphql-eslint/known-type-names': 'error',
      '@graphql-eslint/lone-schema-definition': 'error',
      '@graphql-eslint/possible-type-extension': 'error',
      '@graphql-eslint/provided-required-arguments': 'error',
      '@graphql-eslint/unique-directive-names': 'error',
      '@graphql-eslint/unique-directive-names-per-location': 'error',
      '@graphql-eslint/unique-enum-value-names': 'error',
      '@graphql-eslint/unique-field-definition-names': 'error',
      '@graphql-eslint/unique-operation-types': 'error',
      '@graphql-eslint/unique-type-names': 'error',
    },
  },
];
