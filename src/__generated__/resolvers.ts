import type { GraphQLResolveInfo } from 'graphql';
import type { Principal } from '../modules/auth/principal.js';
import type { PartnerRow } from '../modules/partners/rows.js';
import type { MerchantRow } from '../modules/merchants/rows.js';
import type { ClerkRow } from '../modules/clerks/rows.js';
import type { Context } from '../context.js';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
};

/** A postal address. */
export type Address = {
  __typename?: 'Address';
  /** City. */
  city: Scalars['String']['output'];
  /** ISO 3166-1 alpha-2 country code, e.g. US. */
  country: Scalars['String']['output'];
  /** Postal code; may be the empty string where none was given. */
  postalCode: Scalars['String']['output'];
  /** State, province or region. */
  state: Scalars['String']['output'];
  /** First street line. */
  street: Scalars['String']['output'];
  /** Second street line, when there is one. */
  street2?: Maybe<Scalars['String']['output']>;
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

/** A clerk: a partner's sales staff member, who records sales and in-store payments. */
export type Clerk = {
  __typename?: 'Clerk';
  /** The clerk's email address. */
  email: Scalars['String']['output'];
  /** The clerk's id (salesClerkId in the legacy interface). */
  id: Scalars['ID']['output'];
  /** The clerk's name. */
  name: Scalars['String']['output'];
  /** The person's UUID, stable across the partner's systems. */
  personUuid: Scalars['ID']['output'];
  /** The clerk's phone number. */
  phoneNumber: Scalars['String']['output'];
};

/** A merchant: one of a partner's stores, where devices are sold and in-store payments are taken. */
export type Merchant = {
  __typename?: 'Merchant';
  /** Where the store is. */
  address: Address;
  /** The merchant's id (merchantId in the legacy interface). */
  id: Scalars['ID']['output'];
  /** The store's name. */
  name: Scalars['String']['output'];
  /** The store's phone number, as the partner gave it. */
  phoneNumber: Scalars['String']['output'];
};

/** A partner: a retail chain that sells devices on credit through its merchants (stores). */
export type Partner = {
  __typename?: 'Partner';
  /** The partner's clerks (sales staff), ordered by id. */
  clerks: Array<Clerk>;
  /** The partner's id. */
  id: Scalars['ID']['output'];
  /** The partner's merchants (stores), ordered by id. */
  merchants: Array<Merchant>;
  /** The partner's name. */
  name: Scalars['String']['output'];
};

/** What kind of principal a credential belongs to. */
export type PrincipalKind =
  /** Internal staff: sees every partner. */
  | 'OPERATOR'
  /** A retail chain: the tenant whose merchants, clerks, customers and orders the data is. */
  | 'PARTNER'
  /** A payment vendor (convenience store, mobile money): notifies the service of payments it collected. */
  | 'VENDOR';

/** Root of every read. Fields are added by the domain files beside this one. */
export type Query = {
  __typename?: 'Query';
  /** One of the caller's clerks by id; null when the caller has no clerk with that id. */
  clerk?: Maybe<Clerk>;
  /** The caller's clerks, ordered by id. Partner and retail keys. */
  clerks: Array<Clerk>;
  /** One of the caller's merchants by id; null when the caller has no merchant with that id. */
  merchant?: Maybe<Merchant>;
  /** The caller's merchants, ordered by id. Partner and retail keys. */
  merchants: Array<Merchant>;
  /** A partner by id: a partner key reaches only its own partner (null for any other); operators reach all. */
  partner?: Maybe<Partner>;
  /** Every partner, ordered by id. Operators only (FORBIDDEN for anyone else). */
  partners: Array<Partner>;
  /** The principal behind this request's credential. Fails with MISSING_API_KEY or INVALID_API_KEY without one. */
  viewer: Viewer;
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryClerkArgs = {
  id: Scalars['ID']['input'];
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryMerchantArgs = {
  id: Scalars['ID']['input'];
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryPartnerArgs = {
  id: Scalars['ID']['input'];
};

/** The caller of this request. */
export type Viewer = {
  __typename?: 'Viewer';
  /** The kind of key presented. */
  keyKind: ApiKeyKind;
  /** Whose credential this is. */
  kind: PrincipalKind;
  /** The caller's own partner; null unless the key is a partner or retail key. */
  partner?: Maybe<Partner>;
};



export type ResolverTypeWrapper<T> = Promise<T> | T;


export type ResolverWithResolve<TResult, TParent, TContext, TArgs> = {
  resolve: ResolverFn<TResult, TParent, TContext, TArgs>;
};
export type Resolver<TResult, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = ResolverFn<TResult, TParent, TContext, TArgs> | ResolverWithResolve<TResult, TParent, TContext, TArgs>;

export type ResolverFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => Promise<TResult> | TResult;

export type SubscriptionSubscribeFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => AsyncIterable<TResult> | Promise<AsyncIterable<TResult>>;

export type SubscriptionResolveFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

export interface SubscriptionSubscriberObject<TResult, TKey extends string, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<{ [key in TKey]: TResult }, TParent, TContext, TArgs>;
  resolve?: SubscriptionResolveFn<TResult, { [key in TKey]: TResult }, TContext, TArgs>;
}

export interface SubscriptionResolverObject<TResult, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<any, TParent, TContext, TArgs>;
  resolve: SubscriptionResolveFn<TResult, any, TContext, TArgs>;
}

export type SubscriptionObject<TResult, TKey extends string, TParent, TContext, TArgs> =
  | SubscriptionSubscriberObject<TResult, TKey, TParent, TContext, TArgs>
  | SubscriptionResolverObject<TResult, TParent, TContext, TArgs>;

export type SubscriptionResolver<TResult, TKey extends string, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> =
  | ((...args: any[]) => SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>)
  | SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>;

export type TypeResolveFn<TTypes, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (
  parent: TParent,
  context: TContext,
  info: GraphQLResolveInfo
) => Maybe<TTypes> | Promise<Maybe<TTypes>>;

export type IsTypeOfResolverFn<T = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (obj: T, context: TContext, info: GraphQLResolveInfo) => boolean | Promise<boolean>;

export type NextResolverFn<T> = () => Promise<T>;

export type DirectiveResolverFn<TResult = Record<PropertyKey, never>, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = (
  next: NextResolverFn<TResult>,
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;





/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  Address: ResolverTypeWrapper<MerchantRow>;
  ApiKeyKind: ApiKeyKind;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  Clerk: ResolverTypeWrapper<ClerkRow>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  Merchant: ResolverTypeWrapper<MerchantRow>;
  Partner: ResolverTypeWrapper<PartnerRow>;
  PrincipalKind: PrincipalKind;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  Viewer: ResolverTypeWrapper<Principal>;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  Address: MerchantRow;
  Boolean: Scalars['Boolean']['output'];
  Clerk: ClerkRow;
  ID: Scalars['ID']['output'];
  Merchant: MerchantRow;
  Partner: PartnerRow;
  Query: Record<PropertyKey, never>;
  String: Scalars['String']['output'];
  Viewer: Principal;
};

export type AddressResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Address'] = ResolversParentTypes['Address']> = {
  city?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  country?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  postalCode?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  state?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  street?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  street2?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type ClerkResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Clerk'] = ResolversParentTypes['Clerk']> = {
  email?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  personUuid?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  phoneNumber?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type MerchantResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Merchant'] = ResolversParentTypes['Merchant']> = {
  address?: Resolver<ResolversTypes['Address'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  phoneNumber?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type PartnerResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Partner'] = ResolversParentTypes['Partner']> = {
  clerks?: Resolver<Array<ResolversTypes['Clerk']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  merchants?: Resolver<Array<ResolversTypes['Merchant']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type QueryResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  clerk?: Resolver<Maybe<ResolversTypes['Clerk']>, ParentType, ContextType, RequireFields<QueryClerkArgs, 'id'>>;
  clerks?: Resolver<Array<ResolversTypes['Clerk']>, ParentType, ContextType>;
  merchant?: Resolver<Maybe<ResolversTypes['Merchant']>, ParentType, ContextType, RequireFields<QueryMerchantArgs, 'id'>>;
  merchants?: Resolver<Array<ResolversTypes['Merchant']>, ParentType, ContextType>;
  partner?: Resolver<Maybe<ResolversTypes['Partner']>, ParentType, ContextType, RequireFields<QueryPartnerArgs, 'id'>>;
  partners?: Resolver<Array<ResolversTypes['Partner']>, ParentType, ContextType>;
  viewer?: Resolver<ResolversTypes['Viewer'], ParentType, ContextType>;
};

export type ViewerResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Viewer'] = ResolversParentTypes['Viewer']> = {
  keyKind?: Resolver<ResolversTypes['ApiKeyKind'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['PrincipalKind'], ParentType, ContextType>;
  partner?: Resolver<Maybe<ResolversTypes['Partner']>, ParentType, ContextType>;
};

export type Resolvers<ContextType = Context> = {
  Address?: AddressResolvers<ContextType>;
  Clerk?: ClerkResolvers<ContextType>;
  Merchant?: MerchantResolvers<ContextType>;
  Partner?: PartnerResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  Viewer?: ViewerResolvers<ContextType>;
};

