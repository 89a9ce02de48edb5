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
  /** An ISO 4217 currency code the service supports, e.g. USD, MXN, JPY, KWD. */
  CurrencyCode: { input: string; output: string; }
  /** An exact decimal amount, as a string with the currency's decimal places, e.g. "18.00" (USD), "420" (JPY). Inputs accept a plain decimal string with at most the currency's places; never a float. */
  Decimal: { input: string; output: string; }
  /** Any JSON value (used for payment vendors' request schemas and notification bodies). */
  JSON: { input: unknown; output: unknown; }
  /** A moment in time as a Unix timestamp in whole seconds (UTC). */
  Timestamp: { input: number; output: number; }
};

/** A postal address, as given. */
export type AddressInput = {
  /** City. */
  city: Scalars['String']['input'];
  /** ISO 3166-1 alpha-2 country code, e.g. US. */
  country: Scalars['String']['input'];
  /** Postal code; empty when there is none. */
  postalCode?: InputMaybe<Scalars['String']['input']>;
  /** State, province or region. */
  state: Scalars['String']['input'];
  /** First street line. */
  street: Scalars['String']['input'];
  /** Second street line. */
  street2?: InputMaybe<Scalars['String']['input']>;
};

/** What an adjustment corrects. */
export type AdjustmentKind =
  /** The partner's commission. */
  | 'COMMISSION'
  /** The partner's cash from payments. */
  | 'PAYMENT';

/** The kind of API key used, which decides what the caller may do. */
export type ApiKeyKind =
  /** An operator's key: everything, for every partner. */
  | 'OPERATOR'
  /** A partner's query key: lookups, carts and transactions. */
  | 'PARTNER'
  /** A partner's retail key, used by point-of-sale systems: lookups and in-store payments. */
  | 'RETAIL'
  /** A payment vendor's key: buys access tokens, nothing else. */
  | 'VENDOR';

/** A new adjustment. */
export type CreateAdjustmentInput = {
  /** The correction, signed, not zero. */
  amount: Scalars['Decimal']['input'];
  /** Its currency. */
  currency: Scalars['CurrencyCode']['input'];
  /** The order it concerns, if any. */
  financeOrderId?: InputMaybe<Scalars['ID']['input']>;
  /** What it corrects. */
  kind: AdjustmentKind;
  /** The store it concerns. */
  merchantId: Scalars['ID']['input'];
  /** Why: shown to the partner. */
  notes: Scalars['String']['input'];
  /** The partner whose ledger is corrected. */
  partnerId: Scalars['ID']['input'];
};

/** Who a new API key belongs to: exactly the id that its kind needs. */
export type CreateApiKeyInput = {
  /** When the key should stop working; never, if absent. */
  expiresAt?: InputMaybe<Scalars['Timestamp']['input']>;
  /** What the key may do. */
  kind: ApiKeyKind;
  /** A note about the key. */
  label?: InputMaybe<Scalars['String']['input']>;
  /** For OPERATOR keys: the operator. */
  operatorId?: InputMaybe<Scalars['ID']['input']>;
  /** For PARTNER and RETAIL keys: the partner. */
  partnerId?: InputMaybe<Scalars['ID']['input']>;
  /** For VENDOR keys: the payment vendor. */
  paymentVendorId?: InputMaybe<Scalars['ID']['input']>;
};

/** A new cart. */
export type CreateCartInput = {
  /** The cart's tag: unique within the partner. */
  cartTag: Scalars['String']['input'];
  /** Currency of every amount. */
  currency: Scalars['CurrencyCode']['input'];
  /** The buyer. */
  customerId: Scalars['ID']['input'];
  /** Description of the device being sold. */
  deviceDescription?: InputMaybe<Scalars['String']['input']>;
  /** The device model being sold. */
  deviceModelId: Scalars['ID']['input'];
  /** Paid up front: at most the purchase amount. */
  downPayment: Scalars['Decimal']['input'];
  /** The store. */
  merchantId: Scalars['ID']['input'];
  /** Monthly instalment, more than zero. */
  monthlyCost: Scalars['Decimal']['input'];
  /** Number of monthly instalments, at least 1. */
  months: Scalars['Int']['input'];
  /** The partner whose cart this is. */
  partnerId: Scalars['ID']['input'];
  /** Price before tax. */
  pricePreTax: Scalars['Decimal']['input'];
  /** Price of the device. */
  purchaseAmount: Scalars['Decimal']['input'];
  /** The clerk. */
  salesClerkId: Scalars['ID']['input'];
  /** Weekly instalment, more than zero. */
  weeklyCost: Scalars['Decimal']['input'];
};

/** A new clerk of a partner. */
export type CreateClerkInput = {
  /** The clerk's email address. */
  email: Scalars['String']['input'];
  /** The clerk's name. */
  name: Scalars['String']['input'];
  /** The partner the clerk works for. */
  partnerId: Scalars['ID']['input'];
  /** The person's UUID; generated when absent. */
  personUuid?: InputMaybe<Scalars['ID']['input']>;
  /** The clerk's phone number. */
  phoneNumber: Scalars['String']['input'];
};

/** A new customer of a partner. */
export type CreateCustomerInput = {
  /** Postal address, as one line. */
  address?: InputMaybe<Scalars['String']['input']>;
  /** Email address. */
  email?: InputMaybe<Scalars['String']['input']>;
  /** The customer's name. */
  name: Scalars['String']['input'];
  /** National identity number. */
  nationalId?: InputMaybe<Scalars['String']['input']>;
  /** The partner whose customer this is. */
  partnerId: Scalars['ID']['input'];
  /** The customer's phone number: unique within the partner. */
  phoneNumber: Scalars['String']['input'];
};

/** A new device of a partner's customer. */
export type CreateDeviceInput = {
  /** The customer who holds the device. */
  customerId: Scalars['ID']['input'];
  /** Description such as colour and storage. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** The IMEI, 15 or 16 digits: unique across the service. */
  imei: Scalars['String']['input'];
  /** The device's model. */
  modelId: Scalars['ID']['input'];
  /** The partner the device is financed through. */
  partnerId: Scalars['ID']['input'];
  /** The device's phone number. */
  phoneNumber?: InputMaybe<Scalars['String']['input']>;
  /** SIM card number. */
  simNumber?: InputMaybe<Scalars['String']['input']>;
  /** The device tag: unique across the service. */
  tag: Scalars['String']['input'];
};

/** A new device model. */
export type CreateDeviceModelInput = {
  /** The family the model belongs to. */
  familyId: Scalars['ID']['input'];
  /** Make and model as the device reports them. */
  makeModel: Scalars['String']['input'];
  /** Marketing name. */
  name: Scalars['String']['input'];
};

/** A new merchant of a partner. */
export type CreateMerchantInput = {
  /** Where the store is. */
  address: AddressInput;
  /** The store's name. */
  name: Scalars['String']['input'];
  /** The partner the store belongs to. */
  partnerId: Scalars['ID']['input'];
  /** The store's phone number. */
  phoneNumber: Scalars['String']['input'];
};

/** A new partner. */
export type CreatePartnerInput = {
  /** Commission on in-store payments, in basis points: 0 to 10000 (500 = 5%). */
  commissionRateBasisPoints: Scalars['Int']['input'];
  /** The partner's name. */
  name: Scalars['String']['input'];
};

/** A new payment vendor integration. */
export type CreatePaymentVendorInput = {
  /** A readable name. */
  displayName: Scalars['String']['input'];
  /** Whether it may notify payments now. */
  enabled?: Scalars['Boolean']['input'];
  /** The agreed name: lowercase letters, digits and dashes. */
  name: Scalars['String']['input'];
  /** JSON Schema (draft 2020-12) of the vendor's notification body. */
  requestSchema: Scalars['JSON']['input'];
};

/** Turns a cart into a finance order for a device. */
export type FinanceCartInput = {
  /** The cart to finance. */
  cartTag: Scalars['String']['input'];
  /** The device handed to the customer: the cart's model, held by the cart's customer or by no one yet. */
  deviceId: Scalars['ID']['input'];
  /** The partner whose cart it is. */
  partnerId: Scalars['ID']['input'];
};

/** Whether an instalment is covered. */
export type InstallmentStatus =
  /** Due time passed and not fully covered (partial payments still buy days: see paidThrough). */
  | 'OVERDUE'
  /** Covered by the payments so far. */
  | 'PAID'
  /** Not yet due. */
  | 'UPCOMING';

/** Where a payment was taken. */
export type PaymentChannel =
  /** In a partner's store, recorded by a clerk. */
  | 'IN_STORE'
  /** Collected by a payment vendor, which notified the service. */
  | 'VENDOR';

/** Which amount a payment option is. */
export type PaymentOptionType =
  /** The whole remaining balance. */
  | 'FULL'
  /** One monthly instalment (or the balance, if less). */
  | 'MONTH'
  /** One weekly instalment (or the balance, if less). */
  | 'WEEK';

/** What kind of principal a credential belongs to. */
export type PrincipalKind =
  /** Internal staff: sees every partner. */
  | 'OPERATOR'
  /** A retail chain: the tenant whose merchants, clerks, customers and orders the data is. */
  | 'PARTNER'
  /** A payment vendor (convenience store, mobile money): notifies the service of payments it collected. */
  | 'VENDOR';

/** An in-store payment. */
export type RecordInStorePaymentInput = {
  /** More than zero, at most the remaining balance, with at most the currency's decimal places. */
  amount: Scalars['Decimal']['input'];
  /** Must be the order's currency. */
  currency: Scalars['CurrencyCode']['input'];
  /** The order being paid. */
  financeOrderId: Scalars['ID']['input'];
  /** Makes a retry safe: the same key with the same input answers the first receipt and records nothing new; with other input it is IDEMPOTENCY_CONFLICT. Kept at least 24 hours. */
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  /** The store taking the payment: one of the key's partner's merchants. */
  merchantId: Scalars['ID']['input'];
  /** The clerk taking it: one of the partner's clerks. */
  salesClerkId: Scalars['ID']['input'];
};

/** How a device stands, from its current order's payments. */
export type SecureStatus =
  /** Paid through a moment still in the future: usable, and secured against tampering. */
  | 'ACTIVE_AND_SECURED'
  /** Paid-through time has passed: locked until a payment arrives. */
  | 'LOCKED'
  /** Fully paid: released for good. */
  | 'RELEASED';

/** What a transaction records, from the partner's side. */
export type TransactionType =
  /** An operator's correction, signed. */
  | 'ADJUSTMENT'
  /** An in-store payment the partner took in cash: minus the payment. */
  | 'CASH'
  /** Commission owed to the partner on an in-store payment: positive. */
  | 'COMMISSION'
  /** A financed sale: +financeAmount. */
  | 'FINANCE';

/** Changes to a payment vendor; absent fields stay as they are. */
export type UpdatePaymentVendorInput = {
  /** A readable name. */
  displayName?: InputMaybe<Scalars['String']['input']>;
  /** Enables or disables the vendor. */
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  /** The vendor. */
  id: Scalars['ID']['input'];
  /** A new JSON Schema of the notification body. */
  requestSchema?: InputMaybe<Scalars['JSON']['input']>;
};

export type ListClerksQueryVariables = Exact<{ [key: string]: never; }>;


export type ListClerksQuery = { clerks: Array<{ id: string, personUuid: string, name: string, phoneNumber: string, email: string }> };

export type ListMerchantsQueryVariables = Exact<{ [key: string]: never; }>;


export type ListMerchantsQuery = { merchants: Array<{ id: string, name: string, phoneNumber: string, address: { street: string, street2: string | null, city: string, state: string, postalCode: string, country: string } }> };
