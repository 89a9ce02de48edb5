// THE legacy route table. Each route: its method and path, which interface it belongs to, where its
// credential is, its declared parameters, the handwritten GraphQL operation it runs, and the explicit
// mapper from that operation's data to the frozen legacy body. The graph can grow; these bodies do not.
import { readFileSync } from 'node:fs';
import type { ListClerksQuery, ListMerchantsQuery } from '../__generated__/operations.js';
import type { ParamSpec } from './params.js';
import type { Surface } from './status.js';

/** Where a route's credential is presented. */
export type CredentialSource = { in: 'query'; name: string };

export interface LegacyRoute<TData = never> {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  surface: Surface;
  credential: CredentialSource;
  params: readonly ParamSpec[];
  /** Text of the handwritten operation in rest/operations/. */
  operation: string;
  variables: (params: Record<string, unknown>) => Record<string, unknown>;
  toLegacy: (data: TData) => unknown;
}

function operation(file: string): string {
  return readFileSync(new URL(`./operations/${file}.graphql`, import.meta.url), 'utf8');
}

/** Keeps each route's mapper typed with its own operation's data. */
function route<TData>(definition: LegacyRoute<TData>): LegacyRoute<TData> {
  return definition;
}

const PARTNER_KEY: CredentialSource = { in: 'query', name: 'key' };
const noVariables = () => ({});

export const LEGACY_ROUTES = [
  route<ListClerksQuery>({
    name: 'list-clerks',
    method: 'GET',
    path: '/v1/list-clerks.php',
    surface: 'partner',
    credential: PARTNER_KEY,
    params: [],
    operation: operation('listClerks'),
    variables: noVariables,
    // interface.md 2.3: every field a string, id included.
    toLegacy: (data) => ({
      valid: true,
      clerks: data.clerks.map((clerk) => ({
        id: clerk.id,
        personUuid: clerk.personUuid,
        name: clerk.name,
        phoneNumber: clerk.phoneNumber,
        email: clerk.email,
      })),
    }),
  }),
  route<ListMerchantsQuery>({
    name: 'list-merchants',
    method: 'GET',
    path: '/v1/list-merchants.php',
    surface: 'partner',
    credential: PARTNER_KEY,
    params: [],
    operation: operation('listMerchants'),
    variables: noVariables,
    // interface.md 2.4: string id; street2 string or null; postalCode may be empty.
    toLegacy: (data) => ({
      valid: true,
      merchants: data.merchants.map((merchant) => ({
        id: merchant.id,
        name: merchant.name,
        address: {
          street: merchant.address.street,
          street2: merchant.address.street2,
          city: merchant.address.city,
          state: merchant.address.state,
          postalCode: merchant.address.postalCode,
          country: merchant.address.country,
        },
        phoneNumber: merchant.phoneNumber,
      })),
    }),
  }),
] as const satisfies readonly LegacyRoute<never>[];
