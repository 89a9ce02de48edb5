/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
};

/** The kind of API key used, which decides what the caller may do. */
export type ApiKeyKind =
  /** An operator's key. */
  | 'OPERATOR'
  /** A partner's query key: lookups, carts and transactions. */
  | 'PARTNER'
  /** A partner's retail key, used by point-of-sale systems: lookups and in-store payments. */
  | 'RETAIL'
  /** A payment vendor's key: buys access tokens. */
  | 'VENDOR';

/** What kind of principal a credential belongs to. */
export type PrincipalKind =
  /** Internal staff: sees every partner. */
  | 'OPERATOR'
  /** A retail chain: the tenant whose merchants, clerks, customers and orders the data is. */
  | 'PARTNER'
  /** A payment vendor (convenience store, mobile money): notifies the service of payments it collected. */
  | 'VENDOR';

export type ListClerksQueryVariables = Exact<{ [key: string]: never; }>;


export type ListClerksQuery = { clerks: Array<{ id: string, personUuid: string, name: string, phoneNumber: string, email: string }> };

export type ListMerchantsQueryVariables = Exact<{ [key: string]: never; }>;


export type ListMerchantsQuery = { merchants: Array<{ id: string, name: string, phoneNumber: string, address: { street: string, street2: string | null, city: string, state: string, postalCode: string, country: string } }> };
