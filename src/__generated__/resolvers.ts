import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { Principal } from '../modules/auth/principal.js';
import type { ApiKeyRow, CreatedApiKeyParent, AccessTokenParent } from '../modules/auth/rows.js';
import type { PartnerRow } from '../modules/partners/rows.js';
import type { PartnerSettingsParent } from '../modules/partners/settings.js';
import type { SandboxClockView } from '../modules/partners/clock.js';
import type { MerchantRow } from '../modules/merchants/rows.js';
import type { ClerkRow } from '../modules/clerks/rows.js';
import type { PageInfoParent } from '../modules/pages.js';
import type { CustomerParent, CustomerEdgeParent, CustomerConnectionParent } from '../modules/customers/rows.js';
import type { DeviceParent, DeviceFamilyRow, DeviceModelRow, DeviceEdgeParent, DeviceConnectionParent, DeviceModelEdgeParent, DeviceModelConnectionParent } from '../modules/devices/rows.js';
import type { DeviceCommandRow, DeviceCommandEdgeParent, DeviceCommandConnectionParent } from '../modules/deviceCommands/rows.js';
import type { CartRow } from '../modules/carts/rows.js';
import type { FinanceOrderParent, FinanceOrderEdgeParent, FinanceOrderConnectionParent, PaymentOptionParent, InstallmentParent } from '../modules/financeOrders/rows.js';
import type { RepaymentParent, RepaymentOptionParent } from '../modules/financeOrders/repayment.js';
import type { DeviceRepaymentParent } from '../modules/payments/repaymentQuote.js';
import type { PaymentParent, PaymentReceiptParent, PaymentReversalParent, PaymentNotificationParent } from '../modules/payments/rows.js';
import type { PortfolioSums, PortfolioAgeingParent, AgeingBucketParent, PortfolioHistoryPointParent } from '../modules/book/rows.js';
import type { ReportRunRow, ReportRunEdgeParent, ReportRunConnectionParent } from '../modules/reports/rows.js';
import type { PaymentVendorRow } from '../modules/vendors/rows.js';
import type { PaymentReferenceRow, PaymentReferenceEdgeParent, PaymentReferenceConnectionParent } from '../modules/paymentReferences/rows.js';
import type { ListedTransactionRow, TransactionConnectionParent, AdjustmentRow } from '../modules/transactions/rows.js';
import type { AuditEventRow, AuditEventEdgeParent, AuditEventPage } from '../modules/audit/rows.js';
import type { EventRow, EventEdgeParent, EventPage } from '../modules/events/rows.js';
import type { WebhookEndpointRow, WebhookEndpointSecretParent, WebhookDeliveryRow, WebhookEndpointEdgeParent, WebhookEndpointConnectionParent, WebhookDeliveryEdgeParent, WebhookDeliveryConnectionParent, WebhookAttemptRow } from '../modules/webhooks/rows.js';
import type { Context } from '../pipeline/context.js';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Omit<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** An ISO 4217 currency code the service supports, e.g. USD, MXN, JPY, KWD. */
  CurrencyCode: { input: string; output: string; }
  /** An exact decimal amount, as a string with the currency's decimal places, e.g. "18.00" (USD), "420" (JPY). Inputs accept a plain decimal string with at most the currency's places (zeros past them change nothing: "4.000" is 4.00 USD); never a float. */
  Decimal: { input: string; output: string; }
  /** Any JSON value (used for payment vendors' request schemas and notification bodies). */
  JSON: { input: unknown; output: unknown; }
  /** A moment in time as a Unix timestamp in whole seconds (UTC). */
  Timestamp: { input: number; output: Date | number; }
};

/** A bearer access token, bought with a vendor's (or an operator's) API key. */
export type AccessToken = {
  __typename?: 'AccessToken';
  /** The token, for Authorization: Bearer. */
  accessToken: Scalars['String']['output'];
  /** When the token expires. */
  expiresAt: Scalars['Timestamp']['output'];
  /** Seconds until the token expires. */
  expiresIn: Scalars['Int']['output'];
  /** Always Bearer. */
  tokenType: Scalars['String']['output'];
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

/** An operator's correction of a partner's ledger. It does not change any customer's balance. */
export type Adjustment = {
  __typename?: 'Adjustment';
  /** The correction, signed. */
  amount: Scalars['Decimal']['output'];
  /** Its currency. */
  currency: Scalars['CurrencyCode']['output'];
  /** The order it concerns, if any. */
  financeOrder?: Maybe<FinanceOrder>;
  /** The adjustment's id. */
  id: Scalars['ID']['output'];
  /** What it corrects. */
  kind: AdjustmentKind;
  /** The store it concerns. */
  merchant: Merchant;
  /** Why it was made. */
  notes: Scalars['String']['output'];
  /** When it was made. */
  time: Scalars['Timestamp']['output'];
};

/** What an adjustment corrects. */
export type AdjustmentKind =
  /** The partner's commission. */
  | 'COMMISSION'
  /** The partner's cash from payments. */
  | 'PAYMENT';

/** An operator's correction. */
export type AdjustmentTransaction = Transaction & {
  __typename?: 'AdjustmentTransaction';
  /** The adjustment. */
  adjustment: Adjustment;
  /** The correction, signed. */
  amount: Scalars['Decimal']['output'];
  /** Its currency. */
  currency: Scalars['CurrencyCode']['output'];
  /** The transaction's id. */
  id: Scalars['ID']['output'];
  /** The store. */
  merchant: Merchant;
  /** When it was made. */
  time: Scalars['Timestamp']['output'];
  /** Always ADJUSTMENT. */
  type: TransactionType;
};

/** An ageing bucket: open orders by days past due. */
export type AgeingBucket =
  /** Paid through: 0 days past due. */
  | 'CURRENT'
  /** 1 to 30 days past due. */
  | 'DPD_1_30'
  /** 31 to 60 days past due. */
  | 'DPD_31_60'
  /** 61 to 90 days past due. */
  | 'DPD_61_90'
  /** 91 to 180 days past due. */
  | 'DPD_91_180'
  /** More than 180 days past due. */
  | 'DPD_OVER_180';

/** An API key's metadata. The key itself is shown once, when it is created, and never stored. */
export type ApiKey = {
  __typename?: 'ApiKey';
  /** Whether the key works now: neither revoked nor expired. */
  active: Scalars['Boolean']['output'];
  /** When the key was created. */
  createdAt: Scalars['Timestamp']['output'];
  /** The first characters of the key, to tell keys apart. */
  displayPrefix: Scalars['String']['output'];
  /** When the key stops working, if it expires. */
  expiresAt?: Maybe<Scalars['Timestamp']['output']>;
  /** The key's id. */
  id: Scalars['ID']['output'];
  /** What the key may do. */
  kind: ApiKeyKind;
  /** A note about the key (who holds it, what for). */
  label?: Maybe<Scalars['String']['output']>;
  /** The operator an operator key belongs to (its id). */
  operatorId?: Maybe<Scalars['ID']['output']>;
  /** The partner a partner or retail key belongs to. */
  partner?: Maybe<Partner>;
  /** The payment vendor a vendor key belongs to. */
  paymentVendor?: Maybe<PaymentVendor>;
  /** When the key was revoked, if it was. */
  revokedAt?: Maybe<Scalars['Timestamp']['output']>;
};

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

/** Who recorded an audit event. */
export type AuditActorKind =
  /** Someone with shell access on a server, through npm run keys. */
  | 'CLI'
  /** A device at the device door, with its credential (a refused check-in). */
  | 'DEVICE'
  /** An operator, through GraphQL with an operator key or token. */
  | 'OPERATOR'
  /** A partner key, managing its own partner's webhook endpoints. */
  | 'PARTNER';

/** One entry of the audit trail: an operator action or a key event. Append-only: never edited or deleted. */
export type AuditEvent = {
  __typename?: 'AuditEvent';
  /** What was done, e.g. api_key.create, api_key.revoke, adjustment.create, payment_vendor.update. */
  action: Scalars['String']['output'];
  /** The operator's id (OPERATOR), the CLI user's name (CLI), or the partner's id (PARTNER). */
  actorId?: Maybe<Scalars['String']['output']>;
  /** The API key the operator used. */
  actorKeyId?: Maybe<Scalars['ID']['output']>;
  /** Who acted. */
  actorKind: AuditActorKind;
  /** The client's address, for actions through the API. */
  clientAddress?: Maybe<Scalars['String']['output']>;
  /** What changed; never a secret, never a customer's personal data. */
  details: Scalars['JSON']['output'];
  /** The event's id (increasing). */
  id: Scalars['ID']['output'];
  /** The partner concerned, if any. */
  partnerId?: Maybe<Scalars['ID']['output']>;
  /** The request's X-Request-ID, for actions through the API. */
  requestId?: Maybe<Scalars['String']['output']>;
  /** The subject's id. */
  subjectId?: Maybe<Scalars['String']['output']>;
  /** What it was done to, e.g. api_key, partner, payment_vendor. */
  subjectKind: Scalars['String']['output'];
  /** When it happened. */
  time: Scalars['Timestamp']['output'];
};

/** A page of the audit trail, newest first. */
export type AuditEventConnection = {
  __typename?: 'AuditEventConnection';
  /** The page's events with their cursors. */
  edges: Array<AuditEventEdge>;
  /** The page's events (the same as edges' nodes). */
  nodes: Array<AuditEvent>;
  /** Where the page starts and ends: pass endCursor as after for the next (older) page. */
  pageInfo: PageInfo;
  /**
   * How many audit events match the filters (action, partnerId) on every page together, counted when
   * asked for. Cheap: the trail grows with operators' and partners' management actions only, never with
   * payments.
   */
  totalCount: Scalars['Int']['output'];
};

/** An audit event and its cursor. */
export type AuditEventEdge = {
  __typename?: 'AuditEventEdge';
  /** Pass as after to continue with the events older than this one. */
  cursor: Scalars['String']['output'];
  /** The audit event. */
  node: AuditEvent;
};

/** A cart: a device sale on credit being prepared in a store, before it is financed. */
export type Cart = {
  __typename?: 'Cart';
  /** The tag that identifies the cart at the point of sale. */
  cartTag: Scalars['String']['output'];
  /** When the cart was created. */
  createdAt: Scalars['Timestamp']['output'];
  /** Currency of every amount of the cart. */
  currency: Scalars['CurrencyCode']['output'];
  /** The buyer. */
  customer: Customer;
  /** Description of the device being sold. */
  deviceDescription?: Maybe<Scalars['String']['output']>;
  /** The device model being sold. */
  deviceModel: DeviceModel;
  /** Paid up front. */
  downPayment: Scalars['Decimal']['output'];
  /** Financed: purchaseAmount - downPayment. */
  financeAmount: Scalars['Decimal']['output'];
  /** The order the cart became, once financed. */
  financeOrder?: Maybe<FinanceOrder>;
  /** The cart's id. */
  id: Scalars['ID']['output'];
  /** The store. */
  merchant: Merchant;
  /** Monthly instalment. */
  monthlyCost: Scalars['Decimal']['output'];
  /** Number of monthly instalments. */
  months: Scalars['Int']['output'];
  /** Price before tax. */
  pricePreTax: Scalars['Decimal']['output'];
  /** Price of the device. */
  purchaseAmount: Scalars['Decimal']['output'];
  /** The clerk making the sale. */
  salesClerk: Clerk;
  /** Weekly instalment. */
  weeklyCost: Scalars['Decimal']['output'];
};

/** An in-store payment, taken in cash by the partner. */
export type CashTransaction = Transaction & {
  __typename?: 'CashTransaction';
  /** Minus the payment amount. */
  amount: Scalars['Decimal']['output'];
  /** Its currency. */
  currency: Scalars['CurrencyCode']['output'];
  /** The order paid towards. */
  financeOrder: FinanceOrder;
  /** The transaction's id. */
  id: Scalars['ID']['output'];
  /** The store. */
  merchant: Merchant;
  /** The payment. */
  payment: Payment;
  /** The clerk who took it. */
  salesClerk: Clerk;
  /** When the payment was taken. */
  time: Scalars['Timestamp']['output'];
  /** Always CASH. */
  type: TransactionType;
};

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

/** An operator's close of a finance order. */
export type CloseFinanceOrderInput = {
  /** The order. */
  financeOrderId: Scalars['ID']['input'];
  /** What happened, 1 to 500 characters: kept with the order and in the ledger's note. */
  note: Scalars['String']['input'];
  /** Why. */
  reason: FinanceOrderCloseReason;
};

/** Commission owed to the partner on an in-store payment. */
export type CommissionTransaction = Transaction & {
  __typename?: 'CommissionTransaction';
  /** The commission, positive. */
  amount: Scalars['Decimal']['output'];
  /** Its currency. */
  currency: Scalars['CurrencyCode']['output'];
  /** The order paid towards. */
  financeOrder: FinanceOrder;
  /** The transaction's id. */
  id: Scalars['ID']['output'];
  /** The store. */
  merchant: Merchant;
  /** The payment it is earned on. */
  payment: Payment;
  /** When the payment was taken. */
  time: Scalars['Timestamp']['output'];
  /** Always COMMISSION. */
  type: TransactionType;
};

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

/** A payment reference to make: give exactly one of amount and daysPaid. */
export type CreatePaymentReferenceInput = {
  /** The amount, checked like a payment: more than zero, at most the remaining balance, the currency's decimal places. */
  amount?: InputMaybe<Scalars['Decimal']['input']>;
  /** Or a number of days (1 to 3,600): the amount is the cheapest that buys at least that many, capped at the balance. */
  daysPaid?: InputMaybe<Scalars['Int']['input']>;
  /** Hours until it expires: 1 to 720 (the default is 72). */
  expiresInHours?: InputMaybe<Scalars['Int']['input']>;
  /** The order to pay towards: one of the key's partner's (operators: any). */
  financeOrderId: Scalars['ID']['input'];
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

/** What createReportRun makes, and of which window. */
export type CreateReportRunInput = {
  /** AGEING: the moment, up to the partner's now (the default). */
  asOf?: InputMaybe<Scalars['Timestamp']['input']>;
  /** TRANSACTIONS and PORTFOLIO_HISTORY: the window's end, exclusive; at most 366 days after start. */
  end?: InputMaybe<Scalars['Timestamp']['input']>;
  /** The partner whose book it reads (a partner key: its own). */
  partnerId: Scalars['ID']['input'];
  /** TRANSACTIONS and PORTFOLIO_HISTORY: the window's start, inclusive (the partner's time). */
  start?: InputMaybe<Scalars['Timestamp']['input']>;
  /** What to make. */
  type: ReportType;
};

/** A new webhook endpoint. */
export type CreateWebhookEndpointInput = {
  /** What the partner calls it (up to 255 characters). */
  description?: InputMaybe<Scalars['String']['input']>;
  /** The event types to receive (at least one; PAYJOY_V1: TRANSACTION_CREATED only). */
  eventTypes: Array<EventType>;
  /** STANDARD unless a legacy receiver needs PAYJOY_V1. */
  format?: WebhookFormat;
  /** Operators: the partner (required). Partner keys: their own partner (or omitted). */
  partnerId?: InputMaybe<Scalars['ID']['input']>;
  /** https://... (http://127.0.0.1 outside production). */
  url: Scalars['String']['input'];
};

/** A new API key: its secret appears here once and can never be read again. */
export type CreatedApiKey = {
  __typename?: 'CreatedApiKey';
  /** The key's metadata. */
  apiKey: ApiKey;
  /** The key itself. Store it now: only its hash is kept. */
  secret: Scalars['String']['output'];
};

/** A partner's customer, who buys devices on credit. */
export type Customer = {
  __typename?: 'Customer';
  /** Personal data (postal address as one line): always returned to operators; to partners only with reveal: true. */
  address?: Maybe<Scalars['String']['output']>;
  /** When the customer was registered with the service (what the customers createdAfter and createdBefore filters match). */
  createdAt: Scalars['Timestamp']['output'];
  /** The customer's devices, ordered by id, a page at a time. */
  devices: DeviceConnection;
  /** Personal data: always returned to operators; to partners only when asked for with reveal: true. */
  email?: Maybe<Scalars['String']['output']>;
  /**
   * The order a lookup matched: for customer(locator) by IMEI or device tag, that device's order;
   * otherwise the customer's newest open order, or the newest order when none is open.
   */
  financeOrder?: Maybe<FinanceOrder>;
  /** The customer's orders, newest first, a page at a time. */
  financeOrders: FinanceOrderConnection;
  /** The customer's id. */
  id: Scalars['ID']['output'];
  /** The customer's name. */
  name: Scalars['String']['output'];
  /** Personal data (national identity number): always returned to operators; to partners only with reveal: true. */
  nationalId?: Maybe<Scalars['String']['output']>;
  /** The customer's phone number. */
  phoneNumber: Scalars['String']['output'];
};


/** A partner's customer, who buys devices on credit. */
export type CustomerAddressArgs = {
  reveal?: Scalars['Boolean']['input'];
};


/** A partner's customer, who buys devices on credit. */
export type CustomerDevicesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** A partner's customer, who buys devices on credit. */
export type CustomerEmailArgs = {
  reveal?: Scalars['Boolean']['input'];
};


/** A partner's customer, who buys devices on credit. */
export type CustomerFinanceOrdersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** A partner's customer, who buys devices on credit. */
export type CustomerNationalIdArgs = {
  reveal?: Scalars['Boolean']['input'];
};

/**
 * A page of customers in id order: a customer keeps its id and a new customer gets a higher one, so
 * pages stay in place while customers are added. No totalCount: one partner can hold millions of
 * customers, and the status and merchant filters look at each one's orders, so a count would read all
 * of a listing where a page reads one index range.
 */
export type CustomerConnection = {
  __typename?: 'CustomerConnection';
  /** The page's customers with their cursors. */
  edges: Array<CustomerEdge>;
  /** The page's customers (the same as edges' nodes). */
  nodes: Array<Customer>;
  /** Where the page starts and ends, and whether customers of the listing follow or precede it. */
  pageInfo: PageInfo;
};

/** A customer and its cursor. */
export type CustomerEdge = {
  __typename?: 'CustomerEdge';
  /** Pass as after to continue after this customer. */
  cursor: Scalars['String']['output'];
  /** The customer. */
  node: Customer;
};

/** One POST to a receiver. */
export type DeliveryAttempt = {
  __typename?: 'DeliveryAttempt';
  /** When it was made. */
  at: Scalars['Timestamp']['output'];
  /** Why it failed without an answer (timeout, connection refused, address not allowed...). */
  error?: Maybe<Scalars['String']['output']>;
  /** From sending to the answer's headers, in milliseconds. */
  latencyMs?: Maybe<Scalars['Int']['output']>;
  /** The first 1 kB of the receiver's answer. */
  response?: Maybe<Scalars['String']['output']>;
  /** The receiver's HTTP status (null: no answer). */
  statusCode?: Maybe<Scalars['Int']['output']>;
};

/** A financed phone, identified by its tag and IMEI. */
export type Device = {
  __typename?: 'Device';
  /** The commands sent to the device, newest first, a page at a time. */
  commands: DeviceCommandConnection;
  /** The customer who holds the device. */
  customer?: Maybe<Customer>;
  /** A description such as colour and storage. */
  description?: Maybe<Scalars['String']['output']>;
  /**
   * The events of its partner's log whose data names the device (its data.device): reminders, locks,
   * unlocks, releases, check-ins, acknowledged commands, reversed payments and closed orders, newest
   * first, a page at a time. Whoever sees the device sees them; a device sold again shows its earlier
   * orders' events too. Kept EVENT_RETENTION_DAYS, as the log is.
   */
  events: EventConnection;
  /** The model's family. */
  family: DeviceFamily;
  /** The newest order financing this device. */
  financeOrder?: Maybe<FinanceOrder>;
  /** The device's id. */
  id: Scalars['ID']['output'];
  /** The IMEI: 15 or 16 digits, unique across the service. */
  imei: Scalars['String']['output'];
  /** What the device reported at its last check-in; null before its first. */
  lastCheckin?: Maybe<DeviceCheckin>;
  /** When the device last reported in. */
  lastSeen?: Maybe<Scalars['Timestamp']['output']>;
  /** The device's model. */
  model: DeviceModel;
  /** The device's own phone number, when known. */
  phoneNumber?: Maybe<Scalars['String']['output']>;
  /** Status of the device from its current order; null without an order. */
  secureStatus?: Maybe<SecureStatus>;
  /**
   * Since when the service has not heard from the device: its last check-in at the device door, or,
   * when it never checked in, the time of its first finance order (from then on its lock agent should
   * check in). Null for a device that never checked in and was never financed. What
   * devices(filter: { silentForDays }) compares.
   */
  silentSince?: Maybe<Scalars['Timestamp']['output']>;
  /** The SIM card number, when known. */
  simNumber?: Maybe<Scalars['String']['output']>;
  /** The device tag printed on the device, unique across the service. */
  tag: Scalars['String']['output'];
  /** When the device locks unless a payment arrives: its current order's paidThrough + the partner's lockGraceHours (kept once paid off). */
  validThrough?: Maybe<Scalars['Timestamp']['output']>;
};


/** A financed phone, identified by its tag and IMEI. */
export type DeviceCommandsArgs = {
  after?: InputMaybe<Scalars['ID']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** A financed phone, identified by its tag and IMEI. */
export type DeviceEventsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  types?: InputMaybe<Array<EventType>>;
};

/** What a device reported at its last check-in. */
export type DeviceCheckin = {
  __typename?: 'DeviceCheckin';
  /** The version of its lock agent. */
  appVersion?: Maybe<Scalars['String']['output']>;
  /** When it checked in (its partner's time). */
  at: Scalars['Timestamp']['output'];
  /** The SIM card number it reported, when it reported one. */
  simNumber?: Maybe<Scalars['String']['output']>;
};

/** A command sent to one device, carried by its check-ins until the device acknowledges it. */
export type DeviceCommand = {
  __typename?: 'DeviceCommand';
  /** When the device acknowledged it; null until then. */
  acknowledgedAt?: Maybe<Scalars['Timestamp']['output']>;
  /** When it was sent, on the partner's clock. */
  createdAt: Scalars['Timestamp']['output'];
  /** When a check-in first carried it; null while pending. */
  deliveredAt?: Maybe<Scalars['Timestamp']['output']>;
  /** UNLOCK_FOR_HOURS: the hours of use it gives; null for the other types. */
  hours?: Maybe<Scalars['Int']['output']>;
  /** The command's id: the device acknowledges it by this id. */
  id: Scalars['ID']['output'];
  /** SHOW_MESSAGE: the text shown; null for the other types. */
  message?: Maybe<Scalars['String']['output']>;
  /** Where it stands now. */
  status: DeviceCommandStatus;
  /** What it asks. */
  type: DeviceCommandType;
};

/** A page of a device's commands, newest first. */
export type DeviceCommandConnection = {
  __typename?: 'DeviceCommandConnection';
  /** The page's commands with their cursors. */
  edges: Array<DeviceCommandEdge>;
  /** The page's commands (the same as edges' nodes). */
  nodes: Array<DeviceCommand>;
  /** Where the page starts and ends, and whether commands follow or precede it. */
  pageInfo: PageInfo;
};

/** A device command and its cursor. */
export type DeviceCommandEdge = {
  __typename?: 'DeviceCommandEdge';
  /** The command's id: pass as after to continue with the older commands. */
  cursor: Scalars['String']['output'];
  /** The command. */
  node: DeviceCommand;
};

/** Where a device command stands. */
export type DeviceCommandStatus =
  /** The device acknowledged it in a later check-in. */
  | 'ACKNOWLEDGED'
  /** A check-in answer carried it to the device; every check-in carries it again until the device acknowledges it. */
  | 'DELIVERED'
  /** Not acknowledged 7 days after it was sent (on the partner's clock): carried no more (deliveredAt says whether an answer ever carried it). */
  | 'EXPIRED'
  /** Waiting for the device's next check-in. */
  | 'PENDING';

/** What a command asks of a device's lock agent (decisions.md 20). */
export type DeviceCommandType =
  /** Lock now, whatever the order says, until a later UNLOCK_FOR_HOURS or RELEASE, or a payment received after it. */
  | 'LOCK_NOW'
  /** Remove the lock for good: only for a device whose order is paid off and released (not while its payoff can be reversed). */
  | 'RELEASE'
  /** Show message (1 to 500 characters, no control character but the newline, no bidirectional override) on the device's screen. */
  | 'SHOW_MESSAGE'
  /** A locked device may be used for hours (1 to 720) from the first check-in that carries it; the order is not changed. */
  | 'UNLOCK_FOR_HOURS';

/** A page of devices, ordered by id. */
export type DeviceConnection = {
  __typename?: 'DeviceConnection';
  /** The page's devices with their cursors. */
  edges: Array<DeviceEdge>;
  /** The page's devices (the same as edges' nodes). */
  nodes: Array<Device>;
  /** Where the page starts and ends, and whether devices follow or precede it. */
  pageInfo: PageInfo;
};

/** A device and its cursor. */
export type DeviceEdge = {
  __typename?: 'DeviceEdge';
  /** Pass as after to continue after this device. */
  cursor: Scalars['String']['output'];
  /** The device. */
  node: Device;
};

/** A family of device models, e.g. Galaxy S6. */
export type DeviceFamily = {
  __typename?: 'DeviceFamily';
  /** The family's id. */
  id: Scalars['ID']['output'];
  /** The family's models, ordered by id, a page at a time. */
  models: DeviceModelConnection;
  /** The family's name. */
  name: Scalars['String']['output'];
};


/** A family of device models, e.g. Galaxy S6. */
export type DeviceFamilyModelsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};

/** What Query.devices lists: every filter given must hold. */
export type DeviceFilter = {
  /**
   * Only devices silent for at least this many days, 1 to 3,650: their silentSince is at or before
   * their partner's time less that many days of 86,400 seconds. A device without silentSince never matches.
   */
  silentForDays?: InputMaybe<Scalars['Int']['input']>;
};

/** A device model, e.g. SAMSUNG SM-G920P. */
export type DeviceModel = {
  __typename?: 'DeviceModel';
  /** The model's family. */
  family: DeviceFamily;
  /** The model's id. */
  id: Scalars['ID']['output'];
  /** Make and model as the device reports them. */
  makeModel: Scalars['String']['output'];
  /** The model's marketing name. */
  name: Scalars['String']['output'];
};

/** A page of models, ordered by id. */
export type DeviceModelConnection = {
  __typename?: 'DeviceModelConnection';
  /** The page's models with their cursors. */
  edges: Array<DeviceModelEdge>;
  /** The page's models (the same as edges' nodes). */
  nodes: Array<DeviceModel>;
  /** Where the page starts and ends, and whether models follow or precede it. */
  pageInfo: PageInfo;
};

/** A device model and its cursor. */
export type DeviceModelEdge = {
  __typename?: 'DeviceModelEdge';
  /** Pass as after to continue after this device model. */
  cursor: Scalars['String']['output'];
  /** The device model. */
  node: DeviceModel;
};

/**
 * What a payment vendor may tell a customer before taking cash: the order a notification naming the
 * device would pay, and its repayment.
 */
export type DeviceRepayment = {
  __typename?: 'DeviceRepayment';
  /** The order's currency: every amount is in it. */
  currency: Scalars['CurrencyCode']['output'];
  /** The device's tag, as asked. */
  deviceTag: Scalars['String']['output'];
  /** The order a notification for the device pays: the device's current order. */
  financeOrderId: Scalars['ID']['output'];
  /** When the device locks if nothing more is paid (paid-through plus the partner's grace). */
  lockAt: Scalars['Timestamp']['output'];
  /** The minimum, the full payoff, whether other amounts are taken, and the options in days. */
  repayment: Repayment;
};

/**
 * An entry of the event log: written in the same database transaction as the change it tells of, its
 * data fixed then. Only its partner and operators see it. Its id is the webhook-id of its deliveries.
 */
export type Event = {
  __typename?: 'Event';
  /** The event's payload, as webhooks deliver it (docs/integrating.md, Events, gives each type's). */
  data: Scalars['JSON']['output'];
  /** Its webhook deliveries, one per subscribed endpoint and redelivery, oldest first (the latest 25). */
  deliveries: Array<WebhookDelivery>;
  /** The event's id (evt_...): stable, unique. */
  id: Scalars['ID']['output'];
  /** When it happened. */
  occurredAt: Scalars['Timestamp']['output'];
  /** The partner it belongs to. */
  partner?: Maybe<Partner>;
  /** Its place in the log: a partner's events have increasing numbers, in the order they were written (gaps are other partners' events). */
  sequence: Scalars['String']['output'];
  /** What happened. */
  type: EventType;
};

/**
 * A page of the event log, newest first. No totalCount: the log holds an event for every payment and
 * transaction of the last EVENT_RETENTION_DAYS, and counting a partner's would read all of them.
 */
export type EventConnection = {
  __typename?: 'EventConnection';
  /** The page's events with their cursors. */
  edges: Array<EventEdge>;
  /** The page's events (the same as edges' nodes). */
  nodes: Array<Event>;
  /** Where the page starts and ends: pass endCursor as after for the next (older) page. */
  pageInfo: PageInfo;
};

/** An event and its cursor. */
export type EventEdge = {
  __typename?: 'EventEdge';
  /** Pass as after to continue with the events older than this one. */
  cursor: Scalars['String']['output'];
  /** The event. */
  node: Event;
};

/** What an event says happened. */
export type EventType =
  /** A device checked in at the device door: at most one per device per hour (data: lockState, reason, appVersion, simMismatch). */
  | 'DEVICE_CHECKED_IN'
  /** A device acknowledged a command at a check-in (data: the device and the command, decisions.md 20). */
  | 'DEVICE_COMMAND_ACKNOWLEDGED'
  /** A device locked: its order reached lockAt unpaid (data: reason PAYMENT_OVERDUE). */
  | 'DEVICE_LOCKED'
  /** A device's lock is near: sent once for each of its partner's lockReminderDays before lockAt (data: daysLeft, lockAt, minimumPaymentAmount). */
  | 'DEVICE_LOCK_UPCOMING'
  /** An order's device released for good: when its payoff's reversal window closed (at releaseAt), or with the payoff under a window of 0 (decisions.md 44). */
  | 'DEVICE_RELEASED'
  /** A payment moved a locked order's lockAt into the future (or paid it off, until its releaseAt): its device unlocked. */
  | 'DEVICE_UNLOCKED'
  /** A cart was financed: a finance order was created. */
  | 'FINANCE_ORDER_CREATED'
  /** The payment that brought an order's balance to 0 was recorded. */
  | 'FINANCE_ORDER_PAID_OFF'
  /** An operator closed an order whose device was returned: its balance cleared, the device back in stock. */
  | 'FINANCE_ORDER_RETURNED'
  /** An operator wrote an order off: its balance cleared, its device locked for good. */
  | 'FINANCE_ORDER_WRITTEN_OFF'
  /** A payment was recorded, in store or through a vendor (a replay writes no event). */
  | 'PAYMENT_RECORDED'
  /** A payment was reversed inside its window (data: the reversal, the payment, the order's new balance and lockAt). */
  | 'PAYMENT_REVERSED'
  /** A report run failed (data: the run and the reason). */
  | 'REPORT_RUN_FAILED'
  /** A report run's file is ready (data: the run; ReportRun.downloadUrl gives its link). */
  | 'REPORT_RUN_SUCCEEDED'
  /** A partner transaction was written (finance, cash, commission, adjustment). */
  | 'TRANSACTION_CREATED'
  /** A test message sendTestWebhook queued: delivered only to the endpoint tested, never to subscriptions. */
  | 'WEBHOOK_TEST';

/** Turns a cart into a finance order for a device. */
export type FinanceCartInput = {
  /** The cart to finance. */
  cartTag: Scalars['String']['input'];
  /** The device handed to the customer: the cart's model, held by the cart's customer or by no one yet. */
  deviceId: Scalars['ID']['input'];
  /** The partner whose cart it is. */
  partnerId: Scalars['ID']['input'];
};

/** A finance order: the customer's contract to repay a device in instalments. */
export type FinanceOrder = {
  __typename?: 'FinanceOrder';
  /** The cart the order was financed from, if any. */
  cart?: Maybe<Cart>;
  /** When the order was closed (written off or its device returned), at the partner's time; null while open. */
  closedAt?: Maybe<Scalars['Timestamp']['output']>;
  /** The operator's note on closing; null while open. */
  closedNote?: Maybe<Scalars['String']['output']>;
  /** Why it was closed; null while open. */
  closedReason?: Maybe<FinanceOrderCloseReason>;
  /** Currency of every amount of the order. */
  currency: Scalars['CurrencyCode']['output'];
  /** The customer repaying the order. */
  customer: Customer;
  /** The financed device. */
  device: Device;
  /** Paid up front. */
  downPayment: Scalars['Decimal']['output'];
  /** Financed: purchaseAmount - downPayment. */
  financeAmount: Scalars['Decimal']['output'];
  /** True when nothing remains to pay. */
  fullyPaid: Scalars['Boolean']['output'];
  /** The order's id (financeOrderId in the legacy interface). */
  id: Scalars['ID']['output'];
  /** When the device locks if no payment arrives: paidThrough + the partner's lockGraceHours, at the partner's time; null once fully paid. */
  lockAt?: Maybe<Scalars['Timestamp']['output']>;
  /** The store that sold it. */
  merchant: Merchant;
  /** Monthly instalment. */
  monthlyCost: Scalars['Decimal']['output'];
  /** Number of monthly instalments. */
  months: Scalars['Int']['output'];
  /** When the lock activates if no payment arrives: lockAt (its legacy name); null once fully paid. */
  nextPayment?: Maybe<Scalars['Timestamp']['output']>;
  /** Paid through: time + 30 days + floor(totalPaid * 30 / monthlyCost) days. */
  paidThrough: Scalars['Timestamp']['output'];
  /** What the customer can pay now: the full balance, a month, a week (each at most the balance); empty once fully paid. */
  paymentOptions: Array<PaymentOption>;
  /** The order's payment references, in the order they were made, a page at a time. */
  paymentReferences: PaymentReferenceConnection;
  /** The order's payments, in store or through vendors, oldest first, a page at a time. */
  payments: Array<Payment>;
  /** Price before tax. */
  pricePreTax: Scalars['Decimal']['output'];
  /** Price of the device. */
  purchaseAmount: Scalars['Decimal']['output'];
  /** Once paid off: when its device is released, the payoff's reversal window closing (decisions.md 44); until then the order is completing and its device stays secured. Null while something remains to pay, and for orders paid off before release waited. */
  releaseAt?: Maybe<Scalars['Timestamp']['output']>;
  /** Still to pay: repayableTotal - totalPaid - what a close cleared (0 once closed). */
  remainingBalance: Scalars['Decimal']['output'];
  /** What the customer repays in all: monthlyCost * months (includes the finance charge). */
  repayableTotal: Scalars['Decimal']['output'];
  /** What the customer can pay now, priced in days of use by the order's day rule and its partner's settings (decisions.md 16). */
  repayment: Repayment;
  /** The clerk who sold it. */
  salesClerk: Clerk;
  /** The monthly instalments with their due times and how much of each is paid (an order has at most 120 months). */
  schedule: Array<Installment>;
  /** The device's status under this order. */
  secureStatus: SecureStatus;
  /** Where the order stands now: the same rule as secureStatus, named for the order (what the financeOrders and customers status filters match). */
  status: FinanceOrderStatus;
  /** When the order was made. */
  time: Scalars['Timestamp']['output'];
  /** Sum of every payment so far. */
  totalPaid: Scalars['Decimal']['output'];
  /** Weekly instalment. */
  weeklyCost: Scalars['Decimal']['output'];
};


/** A finance order: the customer's contract to repay a device in instalments. */
export type FinanceOrderPaymentReferencesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** A finance order: the customer's contract to repay a device in instalments. */
export type FinanceOrderPaymentsArgs = {
  after?: InputMaybe<Scalars['ID']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};

/** Why an operator closed a finance order (decisions.md 44). */
export type FinanceOrderCloseReason =
  /** The customer handed the device back. */
  | 'DEVICE_RETURNED'
  /** The customer will not pay: the balance is a loss. */
  | 'WRITE_OFF';

/**
 * A page of finance orders in id order: an order keeps its id and a new order gets a higher one, so
 * pages stay in place while orders are added. No totalCount: one partner can hold millions of orders
 * and the status filter reads each one, so a count would read all of a listing where a page reads one
 * index range.
 */
export type FinanceOrderConnection = {
  __typename?: 'FinanceOrderConnection';
  /** The page's orders with their cursors. */
  edges: Array<FinanceOrderEdge>;
  /** The page's orders (the same as edges' nodes). */
  nodes: Array<FinanceOrder>;
  /** Where the page starts and ends, and whether orders of the listing follow or precede it. */
  pageInfo: PageInfo;
};

/** A finance order and its cursor. */
export type FinanceOrderEdge = {
  __typename?: 'FinanceOrderEdge';
  /** Pass as after to continue after this order. */
  cursor: Scalars['String']['output'];
  /** The order. */
  node: FinanceOrder;
};

/**
 * Where a finance order stands at the moment of the request, by the rules of secureStatus (decisions.md
 * 5): the total paid against the repayable total, and the paid-through time against now.
 */
export type FinanceOrderStatus =
  /** Something remains to pay, and the order is paid through a moment still in the future (secureStatus ACTIVE_AND_SECURED). */
  | 'ACTIVE'
  /** Something remains to pay, and the paid-through moment has come (secureStatus LOCKED). */
  | 'LOCKED'
  /** Nothing remains to pay (secureStatus RELEASED, or ACTIVE_AND_SECURED while completing: until releaseAt). */
  | 'PAID_OFF'
  /** Closed by an operator when the customer handed the device back: the balance was cleared, the device went back to stock (secureStatus LOCKED until a new order finances it). */
  | 'RETURNED'
  /** Closed by an operator as a loss: the balance was cleared, the device stays locked and is never released (secureStatus LOCKED). */
  | 'WRITTEN_OFF';

/** A financed sale. */
export type FinanceTransaction = Transaction & {
  __typename?: 'FinanceTransaction';
  /** +financeAmount. */
  amount: Scalars['Decimal']['output'];
  /** Its currency. */
  currency: Scalars['CurrencyCode']['output'];
  /** The financed device. */
  device: Device;
  /** The order. */
  financeOrder: FinanceOrder;
  /** The transaction's id. */
  id: Scalars['ID']['output'];
  /** The store. */
  merchant: Merchant;
  /** The clerk who sold it. */
  salesClerk: Clerk;
  /** When the order was made. */
  time: Scalars['Timestamp']['output'];
  /** Always FINANCE. */
  type: TransactionType;
};

/** One monthly instalment of an order. Instalment n is due at time + 30 * n days. */
export type Installment = {
  __typename?: 'Installment';
  /** The instalment's amount (monthlyCost). */
  amount: Scalars['Decimal']['output'];
  /** When it is due: the lock activates then if nothing of it is paid. */
  dueAt: Scalars['Timestamp']['output'];
  /** 1 for the first instalment. */
  number: Scalars['Int']['output'];
  /** How much of it the payments so far cover. */
  paid: Scalars['Decimal']['output'];
  /** Covered, overdue or upcoming. */
  status: InstallmentStatus;
};

/** Whether an instalment is covered. */
export type InstallmentStatus =
  /** Due time passed and not fully covered (partial payments still buy days: see paidThrough). */
  | 'OVERDUE'
  /** Covered by the payments so far. */
  | 'PAID'
  /** Not yet due. */
  | 'UPCOMING';

/** A device credential as issued: the credential is shown here once, never again (docs/decisions.md 19). */
export type IssuedDeviceCredential = {
  __typename?: 'IssuedDeviceCredential';
  /** The credential (dvc_...): the device's lock agent checks in with it. Only its hash is kept. */
  credential: Scalars['String']['output'];
  /** The device it opens the device door for. */
  device: Device;
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

/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type Mutation = {
  __typename?: 'Mutation';
  /** Cancels an open (or expired) payment reference; a cancelled one is answered again. Partner, retail and operator keys. */
  cancelPaymentReference: PaymentReference;
  /**
   * Closes a finance order that still owes something: written off, or its device returned. The
   * remaining balance is cleared by an adjustment transaction naming the order, the lock timeline stops,
   * and FINANCE_ORDER_WRITTEN_OFF or FINANCE_ORDER_RETURNED is written. A returned device goes back to
   * stock and its credential ends; a written-off device stays locked. Operators only; audited. Refused:
   * RESOURCE_NOT_FOUND, FINANCE_ORDER_CLOSED (already closed), FINANCE_ORDER_PAID_OFF (nothing to clear).
   */
  closeFinanceOrder: FinanceOrder;
  /** Trades an API key for a bearer access token (vendor and operator keys). Needs no other credential. */
  createAccessToken: AccessToken;
  /** Records an adjustment and its transaction. Operators only. */
  createAdjustment: Adjustment;
  /** Creates an API key for a partner, vendor or operator. Operators only. The secret is shown once. */
  createApiKey: CreatedApiKey;
  /** Creates a cart. Operators only. */
  createCart: Cart;
  /** Creates a clerk for a partner. Operators only. */
  createClerk: Clerk;
  /** Creates a customer for a partner. Operators only. */
  createCustomer: Customer;
  /** Registers a device for a partner's customer. Operators only. */
  createDevice: Device;
  /** Adds a device family to the catalogue. Operators only. */
  createDeviceFamily: DeviceFamily;
  /** Adds a device model to the catalogue. Operators only. */
  createDeviceModel: DeviceModel;
  /** Creates a merchant (store) for a partner. Operators only. */
  createMerchant: Merchant;
  /** Creates a partner. Operators only. */
  createPartner: Partner;
  /**
   * Records a payment a vendor collected. The body is the vendor's notification, checked against the
   * vendor's stored JSON Schema before anything is written; its paymentVendor must be the caller's.
   * The vendor's reference is the idempotency key. Vendor access tokens only. Send the amount as a
   * decimal string here: a JSON number in a variable has already been read as a double (the REST door,
   * POST /payments/v1/notification, reads numbers as written). A key whose notifications had 20
   * payment references refused (unknown, or another amount) in a minute is refused RATE_LIMITED, with
   * extensions.retryAfter, for those quoting a reference: null only beside its error, so the other
   * notifications of the document keep their answers.
   */
  createPaymentNotification?: Maybe<PaymentNotificationResult>;
  /** Makes a payment reference on a finance order. Partner, retail and operator keys. */
  createPaymentReference: PaymentReference;
  /** Sets up a payment vendor. Operators only. */
  createPaymentVendor: PaymentVendor;
  /**
   * Asks for a report file: answers the run PENDING; the worker runs it, then REPORT_RUN_SUCCEEDED or
   * REPORT_RUN_FAILED is written. Partner keys (their own partner) and operators; retail and vendor keys:
   * FORBIDDEN. Refused: INVALID_ARGUMENT (the window), TOO_MANY_REPORT_RUNS (20 waiting).
   */
  createReportRun: ReportRun;
  /** Creates an endpoint (at most 20 per partner); the answer holds its signing secret, shown once. Audited. */
  createWebhookEndpoint: WebhookEndpointSecret;
  /** Deletes an endpoint and its deliveries; answers the endpoint as it was. Audited. */
  deleteWebhookEndpoint: WebhookEndpoint;
  /** Finances a cart: creates its finance order and the finance transaction. Operators only. */
  financeCart: FinanceOrder;
  /**
   * Issues a device's credential for the device door, ending its previous one: operators for any device,
   * partner and retail keys for their own partner's. Audited; the credential is shown in this answer only.
   */
  issueDeviceCredential: IssuedDeviceCredential;
  /**
   * Records a payment taken in a store: the payment, a cash transaction (minus the amount) and, when
   * the partner earns commission, a commission transaction, with the balance change, in one database
   * transaction. Retail keys only.
   */
  recordInStorePayment: PaymentReceipt;
  /**
   * Delivers an event to an endpoint again (a new delivery, due at once), whatever became of earlier ones; while
   * a delivery of it to that endpoint is pending, answers that one, its next attempt brought forward to now.
   * Limited as sendTestWebhook (null only beside its error). Audited.
   */
  redeliverEvent?: Maybe<WebhookDelivery>;
  /**
   * Puts a partner back on real time. Its references already expired stay EXPIRED, its locked orders
   * whose lockAt is ahead of real time are unlocked (DEVICE_UNLOCKED), and its device commands keep no
   * time ahead of real time. Operators any partner's; a partner key its own partner's only (another's is
   * FORBIDDEN); retail and vendor keys: FORBIDDEN. Outside production only (FORBIDDEN there); audited
   * with the caller.
   */
  resetSandboxClock: SandboxClock;
  /**
   * Reverses a payment inside its window (decisions.md 44): the balance, the days it bought and its
   * transactions are answered by new ones; PAYMENT_REVERSED is written. Operators any payment; partner
   * keys their own partner's in-store payments (a vendor's payment: FORBIDDEN). Refused:
   * RESOURCE_NOT_FOUND (unknown or another partner's), FINANCE_ORDER_CLOSED, PAYMENT_ALREADY_REVERSED,
   * REVERSAL_WINDOW_CLOSED.
   */
  reversePayment: PaymentReversal;
  /**
   * A vendor reverses its own payment by the notification's reference (vendor access tokens only; POST
   * /payments/v1/reversal). Refused as reversePayment is; another vendor's reference is
   * RESOURCE_NOT_FOUND.
   */
  reverseVendorPayment: PaymentReversal;
  /** Revokes an API key at once; its access tokens stop working too. Operators only. */
  revokeApiKey: ApiKey;
  /**
   * Ends a device's live credential without issuing another: its check-ins are refused from then on, and
   * its payments carry no unlock code until issueDeviceCredential gives it a new one. Who may: as for
   * issuing. Idempotent: a device without a live credential answers revoked false, and nothing is
   * written; otherwise audited. Revoking the API key that issued a credential does not end it: this does.
   */
  revokeDeviceCredential: RevokedDeviceCredential;
  /** A new secret, shown once; the old one keeps signing STANDARD deliveries beside it for 24 hours. Audited. */
  rotateWebhookSecret: WebhookEndpointSecret;
  /**
   * Sends a command to a device, carried by its check-ins until the device acknowledges it; audited.
   * Operators, and partner keys for their own partner's devices (another partner's is RESOURCE_NOT_FOUND).
   * A device holding 50 waiting commands is TOO_MANY_PENDING_COMMANDS. RELEASE is RELEASE_NOT_ALLOWED
   * unless the device's order is paid off.
   */
  sendDeviceCommand: DeviceCommand;
  /**
   * Queues a signed test delivery (a WEBHOOK_TEST event of the endpoint's partner, delivered to this endpoint
   * only) and answers it at once, PENDING; the delivery worker posts it, and its attempts show what the
   * receiver answered. At most 10 webhook tools per key and 5 per endpoint a minute: past either, this field's
   * error RATE_LIMITED with extensions.retryAfter, and null (the other fields of the document keep their data).
   * Audited.
   */
  sendTestWebhook?: Maybe<WebhookDelivery>;
  /**
   * Moves a partner's sandbox clock forward (SANDBOX_CLOCK_BACKWARDS otherwise). Operators any partner's;
   * a partner key its own partner's only (another's is FORBIDDEN); retail and vendor keys: FORBIDDEN.
   * Outside production only (FORBIDDEN there); audited with the caller.
   */
  setSandboxClock: SandboxClock;
  /** Changes a partner's lock policy. Operators only; audited. A bad value is INVALID_PARTNER_SETTINGS and changes nothing. */
  updatePartnerSettings: Partner;
  /** Changes a payment vendor's schema, name or state. Operators only. */
  updatePaymentVendor: PaymentVendor;
  /** Changes an endpoint's URL, event types, description or whether it is enabled. Audited. */
  updateWebhookEndpoint: WebhookEndpoint;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationCancelPaymentReferenceArgs = {
  code: Scalars['String']['input'];
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationCloseFinanceOrderArgs = {
  input: CloseFinanceOrderInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationCreateAccessTokenArgs = {
  apiKey: Scalars['String']['input'];
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationCreateAdjustmentArgs = {
  input: CreateAdjustmentInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationCreateApiKeyArgs = {
  input: CreateApiKeyInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationCreateCartArgs = {
  input: CreateCartInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationCreateClerkArgs = {
  input: CreateClerkInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationCreateCustomerArgs = {
  input: CreateCustomerInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationCreateDeviceArgs = {
  input: CreateDeviceInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationCreateDeviceFamilyArgs = {
  name: Scalars['String']['input'];
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationCreateDeviceModelArgs = {
  input: CreateDeviceModelInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationCreateMerchantArgs = {
  input: CreateMerchantInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationCreatePartnerArgs = {
  input: CreatePartnerInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationCreatePaymentNotificationArgs = {
  notification: Scalars['JSON']['input'];
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationCreatePaymentReferenceArgs = {
  input: CreatePaymentReferenceInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationCreatePaymentVendorArgs = {
  input: CreatePaymentVendorInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationCreateReportRunArgs = {
  input: CreateReportRunInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationCreateWebhookEndpointArgs = {
  input: CreateWebhookEndpointInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationDeleteWebhookEndpointArgs = {
  id: Scalars['ID']['input'];
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationFinanceCartArgs = {
  input: FinanceCartInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationIssueDeviceCredentialArgs = {
  deviceId: Scalars['ID']['input'];
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationRecordInStorePaymentArgs = {
  input: RecordInStorePaymentInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationRedeliverEventArgs = {
  endpointId: Scalars['ID']['input'];
  eventId: Scalars['ID']['input'];
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationResetSandboxClockArgs = {
  partnerId: Scalars['ID']['input'];
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationReversePaymentArgs = {
  input: ReversePaymentInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationReverseVendorPaymentArgs = {
  input: VendorPaymentReversalInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationRevokeApiKeyArgs = {
  id: Scalars['ID']['input'];
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationRevokeDeviceCredentialArgs = {
  deviceId: Scalars['ID']['input'];
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationRotateWebhookSecretArgs = {
  id: Scalars['ID']['input'];
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationSendDeviceCommandArgs = {
  input: SendDeviceCommandInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationSendTestWebhookArgs = {
  endpointId: Scalars['ID']['input'];
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationSetSandboxClockArgs = {
  input: SetSandboxClockInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationUpdatePartnerSettingsArgs = {
  input: UpdatePartnerSettingsInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationUpdatePaymentVendorArgs = {
  input: UpdatePaymentVendorInput;
};


/** Root of every write. Each mutation runs in one database transaction: all of it is recorded, or none. */
export type MutationUpdateWebhookEndpointArgs = {
  input: UpdateWebhookEndpointInput;
};

/**
 * Where a page of a cursor connection stands (the Relay cursor connections specification). Every
 * connection of this graph pages forward only, with first and after.
 */
export type PageInfo = {
  __typename?: 'PageInfo';
  /** The last edge's cursor: pass it as after to read the next page; null when the page is empty. */
  endCursor?: Maybe<Scalars['String']['output']>;
  /** Whether edges follow this page: the page is read with one row more than it returns, so this is exact. */
  hasNextPage: Scalars['Boolean']['output'];
  /**
   * Whether edges precede this page. False on a first page (no after). After a cursor: true when the
   * listing, with the filters of this request, holds an edge at or before that cursor; asked of the
   * database in a statement of its own, only when this field is selected.
   */
  hasPreviousPage: Scalars['Boolean']['output'];
  /** The first edge's cursor; null when the page is empty. */
  startCursor?: Maybe<Scalars['String']['output']>;
};

/** A partner: a retail chain that sells devices on credit through its merchants (stores). */
export type Partner = {
  __typename?: 'Partner';
  /** The partner's clerks (sales staff), ordered by id, a page at a time. */
  clerks: Array<Clerk>;
  /** Commission the partner earns on in-store payments, in basis points (500 = 5%). */
  commissionRateBasisPoints: Scalars['Int']['output'];
  /** When the partner was created. */
  createdAt: Scalars['Timestamp']['output'];
  /** The partner's id. */
  id: Scalars['ID']['output'];
  /** The partner's merchants (stores), ordered by id, a page at a time. */
  merchants: Array<Merchant>;
  /** The partner's name. */
  name: Scalars['String']['output'];
  /** The earliest lockAt still ahead among the partner's open orders, at the partner's time; null when none. */
  nextLockAt?: Maybe<Scalars['Timestamp']['output']>;
  /** The partner's sandbox clock; null while the partner is on real time (always, in production). */
  sandboxClock?: Maybe<SandboxClock>;
  /** The partner's lock policy: grace, reminders, repayment options, flexible amounts. */
  settings: PartnerSettings;
};


/** A partner: a retail chain that sells devices on credit through its merchants (stores). */
export type PartnerClerksArgs = {
  after?: InputMaybe<Scalars['ID']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** A partner: a retail chain that sells devices on credit through its merchants (stores). */
export type PartnerMerchantsArgs = {
  after?: InputMaybe<Scalars['ID']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};

/** A partner's lock policy (decisions.md 15). */
export type PartnerSettings = {
  __typename?: 'PartnerSettings';
  /** Whether any amount may be paid (true, the default), or only an option or the full payoff. */
  flexibleAmountEnabled: Scalars['Boolean']['output'];
  /** Hours after paid-through before the device locks: 0 to 720 (default 0). */
  lockGraceHours: Scalars['Int']['output'];
  /** Days before the lock a reminder is sent, furthest first: up to 10 entries of 1 to 30 (default [3, 1]). */
  lockReminderDays: Array<Scalars['Int']['output']>;
  /** Days a device may go without checking in before it locks by itself: 1 to 90 (default 7). */
  offlineLockDays: Scalars['Int']['output'];
  /** The repayment options offered, in days paid, shortest first: 1 to 10 entries of 1 to 366 (default [7, 30]). */
  repaymentDays: Array<Scalars['Int']['output']>;
  /** Hours after a payment is received during which it may be reversed, and a payoff's release waits: 0 to 720 (default 72; 0: payments cannot be reversed). Each payment keeps the window it was received under (decisions.md 44). */
  reversalWindowHours: Scalars['Int']['output'];
  /** Whether a device reporting a SIM other than its enrolled one is locked at check-in (default false). */
  simControlEnabled: Scalars['Boolean']['output'];
};

/** A payment towards a finance order. */
export type Payment = {
  __typename?: 'Payment';
  /** The amount paid. */
  amount: Scalars['Decimal']['output'];
  /** Where it was taken. */
  channel: PaymentChannel;
  /** Its currency: always the order's. */
  currency: Scalars['CurrencyCode']['output'];
  /** The order it pays towards. */
  financeOrder: FinanceOrder;
  /** The payment's id. */
  id: Scalars['ID']['output'];
  /** In store: the store. */
  merchant?: Maybe<Merchant>;
  /** Through a vendor: the vendor. */
  paymentVendor?: Maybe<PaymentVendor>;
  /** Its reversal, if it was reversed. */
  reversal?: Maybe<PaymentReversal>;
  /** Until when it may be reversed: its time + its partner's reversalWindowHours when it was received (decisions.md 44). */
  reversibleUntil: Scalars['Timestamp']['output'];
  /** In store: the clerk. */
  salesClerk?: Maybe<Clerk>;
  /** When it was received. */
  time: Scalars['Timestamp']['output'];
  /** Through a vendor: the vendor's own reference for it. */
  vendorReference?: Maybe<Scalars['String']['output']>;
};

/** Where a payment was taken. */
export type PaymentChannel =
  /** In a partner's store, recorded by a clerk. */
  | 'IN_STORE'
  /** Collected by a payment vendor, which notified the service. */
  | 'VENDOR';

/** The answer to a vendor's payment notification. */
export type PaymentNotificationResult = {
  __typename?: 'PaymentNotificationResult';
  /** A confirmation for the vendor. */
  message: Scalars['String']['output'];
  /** What the payment did. */
  receipt: PaymentReceipt;
};

/** An amount the customer can pay now. */
export type PaymentOption = {
  __typename?: 'PaymentOption';
  /** The amount. */
  amount: Scalars['Decimal']['output'];
  /** Its currency. */
  currency: Scalars['CurrencyCode']['output'];
  /** Which option. */
  type: PaymentOptionType;
};

/** Which amount a payment option is. */
export type PaymentOptionType =
  /** The whole remaining balance. */
  | 'FULL'
  /** One monthly instalment (or the balance, if less). */
  | 'MONTH'
  /** One weekly instalment (or the balance, if less). */
  | 'WEEK';

/** What a recorded payment did, as it stood right after it was recorded. */
export type PaymentReceipt = {
  __typename?: 'PaymentReceipt';
  /** Currency of the balance. */
  currency: Scalars['CurrencyCode']['output'];
  /** Tag of the device that received the credit. */
  deviceTag: Scalars['String']['output'];
  /** True when this payment completed the order. */
  fullyPaid: Scalars['Boolean']['output'];
  /** When the lock activates if no further payment arrives; null once fully paid. */
  nextPayment?: Maybe<Scalars['Timestamp']['output']>;
  /** The payment. */
  payment: Payment;
  /** Still to pay after this payment. */
  remainingBalance: Scalars['Decimal']['output'];
  /** True when this is the stored answer to a repeated request (same idempotency key or vendor reference): nothing new was recorded. */
  replayed: Scalars['Boolean']['output'];
  /** When it was recorded. */
  time: Scalars['Timestamp']['output'];
  /** The offline unlock code: 15 digits the customer types on the device, which unlock it until nextPayment (rounded up to the hour), or once the order is paid off until its releaseAt while the payoff can be reversed (decisions.md 44) and for good with a reversal window of 0, without a network (decisions.md 21). Null when the device has no credential. A replay answers the same code; a device accepts each code once. */
  unlockCode?: Maybe<Scalars['String']['output']>;
};

/**
 * An amount on one finance order, named by a short code the customer reads out to a payment vendor.
 * The vendor pays it by adding "paymentReference": "<code>" to its payment notification: at most once,
 * before expiresAt, for exactly its amount and currency.
 */
export type PaymentReference = {
  __typename?: 'PaymentReference';
  /** The amount to pay, exactly. */
  amount: Scalars['Decimal']['output'];
  /** 9 characters of Crockford's base32 (no I, L, O or U), the last a check character; read ignoring case, spaces and hyphens. */
  code: Scalars['String']['output'];
  /** Its currency: the order's. */
  currency: Scalars['CurrencyCode']['output'];
  /** The days the amount buys on the order as it stood when the reference was made. */
  daysPaid: Scalars['Int']['output'];
  /** When it stops taking a payment, on the partner's clock. */
  expiresAt: Scalars['Timestamp']['output'];
  /** The order it pays towards. */
  financeOrder: FinanceOrder;
  /** The reference's id; people, and vendors' notifications, use its code. */
  id: Scalars['ID']['output'];
  /** The payment that paid it; null until it is paid. */
  payment?: Maybe<Payment>;
  /** Open, paid, expired or cancelled, now. */
  status: PaymentReferenceStatus;
};

/** A page of an order's payment references, in the order they were made. */
export type PaymentReferenceConnection = {
  __typename?: 'PaymentReferenceConnection';
  /** The page's references with their cursors. */
  edges: Array<PaymentReferenceEdge>;
  /** The page's references (the same as edges' nodes). */
  nodes: Array<PaymentReference>;
  /** Where the page starts and ends, and whether references follow or precede it. */
  pageInfo: PageInfo;
};

/** A payment reference and its cursor. */
export type PaymentReferenceEdge = {
  __typename?: 'PaymentReferenceEdge';
  /** Pass as after to continue after this reference. */
  cursor: Scalars['String']['output'];
  /** The reference. */
  node: PaymentReference;
};

/** Where a payment reference stands (decisions.md 17). */
export type PaymentReferenceStatus =
  /** Cancelled by the partner or an operator before it was paid. */
  | 'CANCELLED'
  /** Not paid by expiresAt (on the partner's clock, from the second expiresAt shows), or found so when the partner's sandbox clock was reset: a vendor can no longer pay it. */
  | 'EXPIRED'
  /** Waiting for its payment, before expiresAt. */
  | 'OPEN'
  /** Paid, once: payment names the payment. */
  | 'PAID';

/** A payment undone inside its window (decisions.md 44): its balance, its days and its transactions are answered, never erased. */
export type PaymentReversal = {
  __typename?: 'PaymentReversal';
  /** The amount taken back: the payment's. */
  amount: Scalars['Decimal']['output'];
  /** Its currency. */
  currency: Scalars['CurrencyCode']['output'];
  /** Whether the order is still fully paid after it. */
  fullyPaid: Scalars['Boolean']['output'];
  /** The reversal's id. */
  id: Scalars['ID']['output'];
  /** The order's lockAt after it; null if the order is still paid off (another payment paid it). */
  lockAt?: Maybe<Scalars['Timestamp']['output']>;
  /** The payment reversed. */
  payment: Payment;
  /** Why, as the caller said it. */
  reason: Scalars['String']['output'];
  /** What the order still owes after it (a snapshot: the first answer again on a replay). */
  remainingBalance: Scalars['Decimal']['output'];
  /** True when this is the stored answer to a repeated request (the same idempotencyKey): nothing new was reversed. False on a lookup (Payment.reversal). */
  replayed: Scalars['Boolean']['output'];
  /** When it was reversed, at the partner's time. */
  time: Scalars['Timestamp']['output'];
};

/** A payment vendor (convenience store chain, mobile money) integrated with the service. */
export type PaymentVendor = {
  __typename?: 'PaymentVendor';
  /** When the vendor was set up. */
  createdAt: Scalars['Timestamp']['output'];
  /** A readable name. */
  displayName: Scalars['String']['output'];
  /** Whether the vendor may notify payments now; null unless the caller is an operator or this vendor. */
  enabled?: Maybe<Scalars['Boolean']['output']>;
  /** The vendor's id. */
  id: Scalars['ID']['output'];
  /** The name agreed with the vendor; its notifications carry it as paymentVendor. */
  name: Scalars['String']['output'];
  /** JSON Schema every notification of this vendor must satisfy; null unless the caller is an operator or this vendor. */
  requestSchema?: Maybe<Scalars['JSON']['output']>;
};

/** A partner's open orders by days past due as of a moment, in one currency: the buckets sum to the totals. */
export type PortfolioAgeing = {
  __typename?: 'PortfolioAgeing';
  /** The moment (the partner's time). */
  asOf: Scalars['Timestamp']['output'];
  /** Every bucket, CURRENT first, empty ones included. */
  buckets: Array<PortfolioAgeingBucket>;
  /** The currency of the money. */
  currency: Scalars['CurrencyCode']['output'];
  /** Open orders in all (portfolioMetrics' openOrders). */
  orders: Scalars['Int']['output'];
  /** What they owe in all (portfolioMetrics' outstanding). */
  outstanding: Scalars['Decimal']['output'];
};

/** The open orders of one bucket, in one currency. */
export type PortfolioAgeingBucket = {
  __typename?: 'PortfolioAgeingBucket';
  /** Which bucket. */
  bucket: AgeingBucket;
  /** How many open orders are in it. */
  orders: Scalars['Int']['output'];
  /** What they owe. */
  outstanding: Scalars['Decimal']['output'];
};

/** How portfolioMetrics groups its rows: every row of a grouping sums exactly (counts and money) to the NONE row. */
export type PortfolioGroupBy =
  /** A row per month of sale (UTC): group is "YYYY-MM". */
  | 'COHORT_MONTH'
  /** A row per device model: group is the model's name. */
  | 'DEVICE_MODEL'
  /** A row per store: group is the merchant's id. */
  | 'MERCHANT'
  /** One row per currency, group "all". */
  | 'NONE';

/** One point of a history: the NONE figures as of a day's 00:00:00 UTC by the partner's clock. */
export type PortfolioHistoryPoint = {
  __typename?: 'PortfolioHistoryPoint';
  /** The day (YYYY-MM-DD). */
  day: Scalars['String']['output'];
  /** The figures then, as portfolioMetrics(groupBy: NONE) answered them. */
  metrics: PortfolioMetrics;
};

/** The spacing of a history's points. */
export type PortfolioInterval =
  /** Every day's snapshot. */
  | 'DAY'
  /** Each first of the month's snapshot: the month-end figures. */
  | 'MONTH'
  /** Each Monday's snapshot: the state at the end of the week before. */
  | 'WEEK';

/**
 * A partner's book as of a moment, for one group and currency (decisions.md 45 defines every figure).
 * Money is in the row's currency; ratios are decimal strings to 4 places, null when nothing is there to
 * divide by.
 */
export type PortfolioMetrics = {
  __typename?: 'PortfolioMetrics';
  /** The moment the figures are as of (the partner's time). */
  asOf: Scalars['Timestamp']['output'];
  /** Paid (capped per order at what was due) over the instalments due by asOf, orders not closed by then. */
  collectionRate?: Maybe<Scalars['Decimal']['output']>;
  /** The currency of the row's money. */
  currency: Scalars['CurrencyCode']['output'];
  /** Of the orders whose first instalment fell due at least 30 days before asOf, the share that had not paid it. */
  firstPaymentDefaultRate?: Maybe<Scalars['Decimal']['output']>;
  /** The group (see PortfolioGroupBy). */
  group: Scalars['String']['output'];
  /** Open orders whose device was locked at asOf, over open orders. */
  lockedShare?: Maybe<Scalars['Decimal']['output']>;
  /** Orders sold by asOf, neither closed nor paid off then. */
  openOrders: Scalars['Int']['output'];
  /** What the open orders still owed at asOf. */
  outstanding: Scalars['Decimal']['output'];
  /** Outstanding of open orders more than 30 days past due, over outstanding. */
  par30?: Maybe<Scalars['Decimal']['output']>;
  /** Outstanding of open orders more than 60 days past due, over outstanding. */
  par60?: Maybe<Scalars['Decimal']['output']>;
  /** Outstanding of open orders more than 90 days past due, over outstanding. */
  par90?: Maybe<Scalars['Decimal']['output']>;
  /** writtenOff over the mean of the outstanding 30 days before asOf and at asOf. */
  writeOffRatio?: Maybe<Scalars['Decimal']['output']>;
  /** Balances written off (WRITE_OFF closes) in the 30 days to asOf. */
  writtenOff: Scalars['Decimal']['output'];
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
  /** API keys, newest first; optionally only one partner's or one vendor's. Operators only. */
  apiKeys: Array<ApiKey>;
  /** The audit trail, newest first; optionally one action or one partner's. Operators only. */
  auditEvents: AuditEventConnection;
  /** A cart by tag. Partner keys (not retail keys) see their own; operators name the partner. */
  cart?: Maybe<Cart>;
  /** One of the caller's clerks by id; null when the caller has no clerk with that id. */
  clerk?: Maybe<Clerk>;
  /** The caller's clerks, ordered by id, a page at a time. Partner and retail keys. */
  clerks: Array<Clerk>;
  /**
   * A customer found by locator, tried in this order: an IMEI (15 or 16 digits), a device tag, the
   * customer's phone number, the customer id. Partner and retail keys find their own customers only;
   * operators search every partner. Null when nothing matches.
   */
  customer?: Maybe<Customer>;
  /**
   * The caller's customers in id order, a page at a time; every filter given must match. Partner and
   * retail keys list their own partner's customers (as customer(locator) finds them); operators every
   * partner's, or one partner's with partnerId; vendor keys: FORBIDDEN.
   */
  customers: CustomerConnection;
  /** One device, by exactly one of id and tag: a partner key its own partner's, operators any; null when not found. */
  device?: Maybe<Device>;
  /** The device catalogue: the families with their models, ordered by id, a page at a time. */
  deviceFamilies: Array<DeviceFamily>;
  /**
   * For payment vendors before they take cash (vendor access tokens only; GET
   * /payments/v1/repayment-options): the repayment of the order a notification naming this device would
   * pay, at its partner's time. Refused as the notification would be: an unknown device, or one without
   * an order, RESOURCE_NOT_FOUND; a fully paid order AMOUNT_EXCEEDS_BALANCE; a currency given that is not
   * the order's CURRENCY_MISMATCH.
   */
  deviceRepayment: DeviceRepayment;
  /**
   * The caller's devices in id order, a page at a time; every filter given must match. Partner keys
   * list their own partner's devices; operators every partner's, or one partner's with partnerId;
   * retail and vendor keys: FORBIDDEN.
   */
  devices: DeviceConnection;
  /** One event by id: null when the caller may not see it or it does not exist. */
  event?: Maybe<Event>;
  /**
   * The event log, newest first: a partner key reads its own partner's events; operators every
   * partner's, or one's with partnerId. Retail keys: FORBIDDEN. Kept EVENT_RETENTION_DAYS (30 by default).
   */
  events: EventConnection;
  /** One of the caller's finance orders by id; null when the caller has no order with that id. Operators reach all. */
  financeOrder?: Maybe<FinanceOrder>;
  /**
   * The caller's finance orders in id order, a page at a time; every filter given must match. Partner
   * and retail keys list their own partner's orders; operators every partner's, or one partner's with
   * partnerId; vendor keys: FORBIDDEN.
   */
  financeOrders: FinanceOrderConnection;
  /** One of the caller's merchants by id; null when the caller has no merchant with that id. */
  merchant?: Maybe<Merchant>;
  /** The caller's merchants, ordered by id, a page at a time. Partner and retail keys. */
  merchants: Array<Merchant>;
  /** A partner by id: a partner key reaches only its own partner (null for any other); operators reach all. */
  partner?: Maybe<Partner>;
  /** Every partner, ordered by id, a page at a time. Operators only (FORBIDDEN for anyone else). */
  partners: Array<Partner>;
  /** One of the caller's payment references by code; null when the caller has none with that code. Operators reach all. */
  paymentReference?: Maybe<PaymentReference>;
  /** Every payment vendor, ordered by id. Operators only. */
  paymentVendors: Array<PaymentVendor>;
  /** The partner's open orders by days past due as of asOf, one entry per currency. Who may: as portfolioMetrics. */
  portfolioAgeing: Array<PortfolioAgeing>;
  /**
   * The partner's daily snapshots from `from` to `to` (days, YYYY-MM-DD, inclusive), at most 1,000 points,
   * oldest first, one per currency a day. Who may: as portfolioMetrics.
   */
  portfolioHistory: Array<PortfolioHistoryPoint>;
  /**
   * The partner's book as of asOf (default now; not after the partner's now), a row per group and
   * currency. Partner keys: their own partner; operators: any; retail and vendor keys: FORBIDDEN.
   */
  portfolioMetrics: Array<PortfolioMetrics>;
  /** One of the caller's report runs; null for an unknown id or another partner's run. */
  reportRun?: Maybe<ReportRun>;
  /** The caller's report runs, newest first (operators: one partner's with partnerId, or all). */
  reportRuns: ReportRunConnection;
  /**
   * The caller's transactions from start (inclusive) to end (exclusive), sorted by time, then id. The
   * window is at most 366 days. filter takes "path:value" terms that must all match, e.g.
   * "type:cash", "merchant.name:DEMO", "financeOrder.id:4000004", "device.imei:123456789012347".
   * Partner keys (not retail keys); operators name the partner. A page holds at most 5000 transactions
   * (first defaults to that); pageInfo.endCursor passed as after reads the next.
   */
  transactions: TransactionConnection;
  /** The principal behind this request's credential. Fails with MISSING_API_KEY or INVALID_API_KEY without one. */
  viewer: Viewer;
  /**
   * Webhook endpoints in id order (oldest first), a page at a time: a partner key's own partner's;
   * operators one partner's with partnerId, or every partner's. Retail keys: FORBIDDEN. At most 20 per partner.
   */
  webhookEndpoints: WebhookEndpointConnection;
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryApiKeysArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
  partnerId?: InputMaybe<Scalars['ID']['input']>;
  paymentVendorId?: InputMaybe<Scalars['ID']['input']>;
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryAuditEventsArgs = {
  action?: InputMaybe<Scalars['String']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  partnerId?: InputMaybe<Scalars['ID']['input']>;
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryCartArgs = {
  cartTag: Scalars['String']['input'];
  partnerId?: InputMaybe<Scalars['ID']['input']>;
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryClerkArgs = {
  id: Scalars['ID']['input'];
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryClerksArgs = {
  after?: InputMaybe<Scalars['ID']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryCustomerArgs = {
  locator: Scalars['String']['input'];
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryCustomersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  createdAfter?: InputMaybe<Scalars['Timestamp']['input']>;
  createdBefore?: InputMaybe<Scalars['Timestamp']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  merchantId?: InputMaybe<Scalars['ID']['input']>;
  partnerId?: InputMaybe<Scalars['ID']['input']>;
  status?: InputMaybe<FinanceOrderStatus>;
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryDeviceArgs = {
  id?: InputMaybe<Scalars['ID']['input']>;
  tag?: InputMaybe<Scalars['String']['input']>;
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryDeviceFamiliesArgs = {
  after?: InputMaybe<Scalars['ID']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryDeviceRepaymentArgs = {
  currency?: InputMaybe<Scalars['CurrencyCode']['input']>;
  deviceTag: Scalars['String']['input'];
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryDevicesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  filter?: InputMaybe<DeviceFilter>;
  first?: InputMaybe<Scalars['Int']['input']>;
  partnerId?: InputMaybe<Scalars['ID']['input']>;
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryEventArgs = {
  id: Scalars['ID']['input'];
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryEventsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  partnerId?: InputMaybe<Scalars['ID']['input']>;
  types?: InputMaybe<Array<EventType>>;
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryFinanceOrderArgs = {
  id: Scalars['ID']['input'];
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryFinanceOrdersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  createdAfter?: InputMaybe<Scalars['Timestamp']['input']>;
  createdBefore?: InputMaybe<Scalars['Timestamp']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  merchantId?: InputMaybe<Scalars['ID']['input']>;
  partnerId?: InputMaybe<Scalars['ID']['input']>;
  status?: InputMaybe<FinanceOrderStatus>;
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryMerchantArgs = {
  id: Scalars['ID']['input'];
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryMerchantsArgs = {
  after?: InputMaybe<Scalars['ID']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryPartnerArgs = {
  id: Scalars['ID']['input'];
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryPartnersArgs = {
  after?: InputMaybe<Scalars['ID']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryPaymentReferenceArgs = {
  code: Scalars['String']['input'];
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryPortfolioAgeingArgs = {
  asOf?: InputMaybe<Scalars['Timestamp']['input']>;
  partnerId: Scalars['ID']['input'];
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryPortfolioHistoryArgs = {
  from: Scalars['String']['input'];
  interval?: InputMaybe<PortfolioInterval>;
  partnerId: Scalars['ID']['input'];
  to: Scalars['String']['input'];
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryPortfolioMetricsArgs = {
  asOf?: InputMaybe<Scalars['Timestamp']['input']>;
  groupBy?: InputMaybe<PortfolioGroupBy>;
  partnerId: Scalars['ID']['input'];
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryReportRunArgs = {
  id: Scalars['ID']['input'];
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryReportRunsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  partnerId?: InputMaybe<Scalars['ID']['input']>;
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryTransactionsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  end: Scalars['Timestamp']['input'];
  filter?: InputMaybe<Array<Scalars['String']['input']>>;
  first?: InputMaybe<Scalars['Int']['input']>;
  partnerId?: InputMaybe<Scalars['ID']['input']>;
  start: Scalars['Timestamp']['input'];
};


/** Root of every read. Fields are added by the domain files beside this one. */
export type QueryWebhookEndpointsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  partnerId?: InputMaybe<Scalars['ID']['input']>;
};

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

/**
 * What a customer can pay on a finance order now, and what each amount buys in days of use: a payment
 * buys floor((totalPaid + amount) * 30 / monthlyCost) - floor(totalPaid * 30 / monthlyCost) days.
 */
export type Repayment = {
  __typename?: 'Repayment';
  /** The whole days of use an amount would buy on the order now (the day rule above); refused for an amount that could not be paid. */
  daysBoughtBy: Scalars['Int']['output'];
  /** Whether any amount up to the balance is taken; when false, a payment must be an option's amount or the full payoff (else AMOUNT_NOT_AN_OPTION). */
  flexibleAmountEnabled: Scalars['Boolean']['output'];
  /** The remaining balance: paying it pays the order off. */
  fullPayoffAmount: Scalars['Decimal']['output'];
  /** With flexible amounts, the least amount that buys a day (at most the balance); without, the least amount taken (the first option's); 0 once fully paid. */
  minimumPaymentAmount: Scalars['Decimal']['output'];
  /** One per entry of the partner's repaymentDays: the cheapest amount that buys at least that many days, at most the balance; one per distinct amount, by amount; empty once fully paid. */
  options: Array<RepaymentOption>;
};


/**
 * What a customer can pay on a finance order now, and what each amount buys in days of use: a payment
 * buys floor((totalPaid + amount) * 30 / monthlyCost) - floor(totalPaid * 30 / monthlyCost) days.
 */
export type RepaymentDaysBoughtByArgs = {
  amount: Scalars['Decimal']['input'];
};

/** An amount the customer can pay, and the days of use it buys. */
export type RepaymentOption = {
  __typename?: 'RepaymentOption';
  /** The amount, in the order's currency. */
  amount: Scalars['Decimal']['output'];
  /** The days the amount buys by the day rule (not the entry of repaymentDays it was priced for: it may buy more, or fewer when capped at the balance). */
  daysPaid: Scalars['Int']['output'];
  /** When the device locks once this amount is paid (the new paid-through plus the partner's grace). For an option that pays the order off, the instant the day rule gives, though a paid-off order never locks. */
  lockAt: Scalars['Timestamp']['output'];
};

/** A file the worker makes in the background (decisions.md 45): CSV, kept REPORT_RETENTION_DAYS. */
export type ReportRun = {
  __typename?: 'ReportRun';
  /** The moment an AGEING run is as of; null otherwise. */
  asOf?: Maybe<Scalars['Timestamp']['output']>;
  /** The file's size in bytes, once succeeded. */
  byteSize?: Maybe<Scalars['Int']['output']>;
  /** When it was asked for (real time). */
  createdAt: Scalars['Timestamp']['output'];
  /**
   * A link to the file on the service's origin (path and query), signed, valid 15 minutes from this
   * read; null unless succeeded and kept.
   */
  downloadUrl?: Maybe<Scalars['String']['output']>;
  /** The window's end (TRANSACTIONS, PORTFOLIO_HISTORY), exclusive; null otherwise. */
  end?: Maybe<Scalars['Timestamp']['output']>;
  /** When the file is deleted (REPORT_RETENTION_DAYS after it succeeded). */
  expiresAt?: Maybe<Scalars['Timestamp']['output']>;
  /** Why it failed: the error's code and message. */
  failureReason?: Maybe<Scalars['String']['output']>;
  /** When it succeeded or failed. */
  finishedAt?: Maybe<Scalars['Timestamp']['output']>;
  /** The run's id. */
  id: Scalars['ID']['output'];
  /** The partner whose book it reads. */
  partnerId: Scalars['ID']['output'];
  /** The file's data rows (the header not counted), once succeeded. */
  rowCount?: Maybe<Scalars['Int']['output']>;
  /** The window's start (TRANSACTIONS, PORTFOLIO_HISTORY), inclusive; null otherwise. */
  start?: Maybe<Scalars['Timestamp']['output']>;
  /** When a worker began it (its last attempt). */
  startedAt?: Maybe<Scalars['Timestamp']['output']>;
  /** Where it stands. */
  state: ReportRunState;
  /** What it makes. */
  type: ReportType;
};

/** A page of report runs, newest first. */
export type ReportRunConnection = {
  __typename?: 'ReportRunConnection';
  /** The runs of this page with their cursors. */
  edges: Array<ReportRunEdge>;
  /** The runs of this page. */
  nodes: Array<ReportRun>;
  /** Where the page ends, and whether more follow. */
  pageInfo: PageInfo;
};

/** A report run and its cursor. */
export type ReportRunEdge = {
  __typename?: 'ReportRunEdge';
  /** Pass as after to continue after this run. */
  cursor: Scalars['String']['output'];
  /** The run. */
  node: ReportRun;
};

/** Where a report run stands. */
export type ReportRunState =
  /** It failed: failureReason. */
  | 'FAILED'
  /** Waiting for a worker. */
  | 'PENDING'
  /** A worker is writing its file. */
  | 'RUNNING'
  /** Its file is ready: downloadUrl. */
  | 'SUCCEEDED';

/** What a report run makes. */
export type ReportType =
  /** Every open order as of asOf with its days past due and bucket. */
  | 'AGEING'
  /** The daily snapshots from the day of start to the day of end. */
  | 'PORTFOLIO_HISTORY'
  /** The partner's transactions in [start, end), as list-transactions answers them. */
  | 'TRANSACTIONS';

/** A reversal of a payment by its id. */
export type ReversePaymentInput = {
  /** Makes a retry harmless: the same request with the same key answers the first answer (1 to 255 printable ASCII characters). */
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  /** The payment. */
  paymentId: Scalars['ID']['input'];
  /** Why it is reversed: 1 to 500 characters. */
  reason: Scalars['String']['input'];
};

/** What revokeDeviceCredential did (docs/decisions.md 34). */
export type RevokedDeviceCredential = {
  __typename?: 'RevokedDeviceCredential';
  /** The device: the device door refuses its check-ins (INVALID_DEVICE_CREDENTIAL) until a new credential is issued. */
  device: Device;
  /** True when this call ended the device's live credential; false when it had none live (nothing was changed). */
  revoked: Scalars['Boolean']['output'];
};

/** A partner's own time, outside production: real time moved by an offset, still running. */
export type SandboxClock = {
  __typename?: 'SandboxClock';
  /** The partner's time now. */
  now: Scalars['Timestamp']['output'];
  /** The partner. */
  partnerId: Scalars['ID']['output'];
  /** Real time now. */
  realNow: Scalars['Timestamp']['output'];
};

/** How a device stands, from its current order's payments. */
export type SecureStatus =
  /** Paid through a moment still in the future: usable, and secured against tampering. */
  | 'ACTIVE_AND_SECURED'
  /** Paid-through time has passed: locked until a payment arrives. */
  | 'LOCKED'
  /** Fully paid: released for good. */
  | 'RELEASED';

/** A command for one device: hours for UNLOCK_FOR_HOURS only, message for SHOW_MESSAGE only. */
export type SendDeviceCommandInput = {
  /** The device: one of the key's partner's (operators: any). */
  deviceId: Scalars['ID']['input'];
  /** UNLOCK_FOR_HOURS: 1 to 720; not given for the other types. */
  hours?: InputMaybe<Scalars['Int']['input']>;
  /**
   * SHOW_MESSAGE: 1 to 500 characters, not only spaces, with no control character but the newline, no
   * bidirectional embedding, override or isolate, and no line or paragraph separator; not given for the
   * other types.
   */
  message?: InputMaybe<Scalars['String']['input']>;
  /** What to ask of the device. */
  type: DeviceCommandType;
};

/** Where to put a partner's sandbox clock. */
export type SetSandboxClockInput = {
  /** The partner's new time: not before its current time. */
  now: Scalars['Timestamp']['input'];
  /** The partner. */
  partnerId: Scalars['ID']['input'];
};

/**
 * Root of the live feeds, over the GraphQL-over-WebSocket protocol (graphql-ws) on /graphql: the
 * credential goes in the connection_init payload or on the upgrade request, as over HTTP.
 */
export type Subscription = {
  __typename?: 'Subscription';
  /**
   * Each event as it commits, on any instance of the service: a partner key hears its own partner's
   * events; operators every partner's, or one's with partnerId. Retail and vendor keys: FORBIDDEN. At
   * most SUBSCRIPTIONS_PER_KEY open at once per key; a subscriber that falls behind is disconnected
   * (close code 1008). Events committed while disconnected are read with Query.events.
   */
  events: Event;
};


/**
 * Root of the live feeds, over the GraphQL-over-WebSocket protocol (graphql-ws) on /graphql: the
 * credential goes in the connection_init payload or on the upgrade request, as over HTTP.
 */
export type SubscriptionEventsArgs = {
  partnerId?: InputMaybe<Scalars['ID']['input']>;
  types?: InputMaybe<Array<EventType>>;
};

/** An entry of a partner's ledger. */
export type Transaction = {
  /** Signed amount from the partner's side. */
  amount: Scalars['Decimal']['output'];
  /** Its currency. */
  currency: Scalars['CurrencyCode']['output'];
  /** The transaction's id. */
  id: Scalars['ID']['output'];
  /** The store it belongs to. */
  merchant: Merchant;
  /** When it happened. */
  time: Scalars['Timestamp']['output'];
  /** What it records. */
  type: TransactionType;
};

/**
 * A page of transactions, in (time, id) order. No totalCount: counting a window of up to 366 days
 * reads every transaction in it (a partner's year can hold millions), and its filters join the linked
 * rows, so a count would cost more than the page it comes with.
 */
export type TransactionConnection = {
  __typename?: 'TransactionConnection';
  /** The page's transactions with their cursors. */
  edges: Array<TransactionEdge>;
  /** The page's transactions (the same as edges' nodes). */
  nodes: Array<Transaction>;
  /** Where the page starts and ends, and whether transactions of the window follow or precede it. */
  pageInfo: PageInfo;
};

/** A transaction and the cursor after it. */
export type TransactionEdge = {
  __typename?: 'TransactionEdge';
  /** Pass as after to continue after this transaction. */
  cursor: Scalars['String']['output'];
  /** The transaction. */
  node: Transaction;
};

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

/** A change of a partner's lock policy: a field left out or null keeps its value. */
export type UpdatePartnerSettingsInput = {
  /** Whether any amount may be paid. */
  flexibleAmountEnabled?: InputMaybe<Scalars['Boolean']['input']>;
  /** Hours after paid-through before the device locks: 0 to 720. A locked order this puts ahead again is unlocked (DEVICE_UNLOCKED); one it puts past locks. */
  lockGraceHours?: InputMaybe<Scalars['Int']['input']>;
  /** Days before the lock to remind: up to 10 different entries, each 1 to 30. */
  lockReminderDays?: InputMaybe<Array<Scalars['Int']['input']>>;
  /** Days a device may go without checking in before it locks by itself: 1 to 90. */
  offlineLockDays?: InputMaybe<Scalars['Int']['input']>;
  /** The partner. */
  partnerId: Scalars['ID']['input'];
  /** Repayment options in days: 1 to 10 different entries, each 1 to 366. */
  repaymentDays?: InputMaybe<Array<Scalars['Int']['input']>>;
  /** Hours during which a payment may be reversed (and a payoff's release waits): 0 to 720. Payments already received keep their window. */
  reversalWindowHours?: InputMaybe<Scalars['Int']['input']>;
  /** Whether a SIM other than the enrolled one locks the device at check-in. */
  simControlEnabled?: InputMaybe<Scalars['Boolean']['input']>;
};

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

/** Changes to a webhook endpoint: only the fields given change. */
export type UpdateWebhookEndpointInput = {
  /** A new description. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** false stops deliveries; true starts them again (and clears disabledReason). */
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  /** New event types. */
  eventTypes?: InputMaybe<Array<EventType>>;
  /** The endpoint's id. */
  id: Scalars['ID']['input'];
  /** A new URL. */
  url?: InputMaybe<Scalars['String']['input']>;
};

/** A vendor's reversal of its own payment, by the notification's reference (POST /payments/v1/reversal). */
export type VendorPaymentReversalInput = {
  /** Makes a retry harmless: the same request with the same key answers the first answer (1 to 255 printable ASCII characters). */
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  /** The vendor's agreed name: the caller's. */
  paymentVendor: Scalars['String']['input'];
  /** Why it is reversed: 1 to 500 characters. */
  reason: Scalars['String']['input'];
  /** The reference of the notification that made the payment. */
  reference: Scalars['String']['input'];
};

/** The caller of this request. */
export type Viewer = {
  __typename?: 'Viewer';
  /** The kind of key presented (for an access token: the kind of key that bought it). */
  keyKind: ApiKeyKind;
  /** Whose credential this is. */
  kind: PrincipalKind;
  /** The caller's own partner; null unless the key is a partner or retail key. */
  partner?: Maybe<Partner>;
  /** The caller's payment vendor; null unless the credential is a vendor's. */
  paymentVendor?: Maybe<PaymentVendor>;
  /** True when the request carried an access token rather than an API key. */
  viaAccessToken: Scalars['Boolean']['output'];
};

/** One event to be delivered to one endpoint, and every attempt made. */
export type WebhookDelivery = {
  __typename?: 'WebhookDelivery';
  /** Its attempts, oldest first (the last 20; the retry schedule makes at most 13 in 3 days). */
  attempts: Array<DeliveryAttempt>;
  /** When it was enqueued. */
  createdAt: Scalars['Timestamp']['output'];
  /** When a receiver answered 2xx. */
  deliveredAt?: Maybe<Scalars['Timestamp']['output']>;
  /** Where it goes. */
  endpoint: WebhookEndpoint;
  /** What it delivers: its id is the webhook-id header. */
  event: Event;
  /** The delivery's id. */
  id: Scalars['ID']['output'];
  /** When the next attempt is due (PENDING only). */
  nextAttemptAt?: Maybe<Scalars['Timestamp']['output']>;
  /** Where it stands. */
  status: WebhookDeliveryStatus;
};

/** A page of deliveries, newest first. */
export type WebhookDeliveryConnection = {
  __typename?: 'WebhookDeliveryConnection';
  /** The page's deliveries with their cursors. */
  edges: Array<WebhookDeliveryEdge>;
  /** The page's deliveries (the same as edges' nodes). */
  nodes: Array<WebhookDelivery>;
  /** Where the page starts and ends, and whether deliveries follow or precede it. */
  pageInfo: PageInfo;
};

/** A delivery and its cursor. */
export type WebhookDeliveryEdge = {
  __typename?: 'WebhookDeliveryEdge';
  /** Pass as after to continue after this delivery. */
  cursor: Scalars['String']['output'];
  /** The delivery. */
  node: WebhookDelivery;
};

/** Where a delivery stands. */
export type WebhookDeliveryStatus =
  /** A receiver answered 2xx. */
  | 'DELIVERED'
  /** Every attempt of 3 days failed (or the endpoint was disabled or deleted): redeliverEvent sends it again. */
  | 'FAILED'
  /** Not delivered yet: an attempt is due at nextAttemptAt. */
  | 'PENDING';

/** A partner's HTTPS callback: the events of the types it subscribes to are posted to it, signed. */
export type WebhookEndpoint = {
  __typename?: 'WebhookEndpoint';
  /** When it was created. */
  createdAt: Scalars['Timestamp']['output'];
  /** Its deliveries, newest first (the latest 500), a page at a time. */
  deliveries: WebhookDeliveryConnection;
  /** What the partner calls it. */
  description?: Maybe<Scalars['String']['output']>;
  /** Why the endpoint was disabled, when the service disabled it. */
  disabledReason?: Maybe<Scalars['String']['output']>;
  /** Whether deliveries are made: false after updateWebhookEndpoint(enabled: false) or 5 days of failures. */
  enabled: Scalars['Boolean']['output'];
  /** The event types it receives (each at most once; never WEBHOOK_TEST, which only sendTestWebhook sends). */
  eventTypes: Array<EventType>;
  /** Since when every attempt has failed (null: the last attempt was delivered, or none failed). */
  failingSince?: Maybe<Scalars['Timestamp']['output']>;
  /** How deliveries are shaped and signed. */
  format: WebhookFormat;
  /** The endpoint's id. */
  id: Scalars['ID']['output'];
  /** The partner it belongs to. */
  partner?: Maybe<Partner>;
  /** Where deliveries are posted: https:// in production, never to a loopback, private or link-local address. */
  url: Scalars['String']['output'];
};


/** A partner's HTTPS callback: the events of the types it subscribes to are posted to it, signed. */
export type WebhookEndpointDeliveriesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};

/** A page of endpoints, oldest first. */
export type WebhookEndpointConnection = {
  __typename?: 'WebhookEndpointConnection';
  /** The page's endpoints with their cursors. */
  edges: Array<WebhookEndpointEdge>;
  /** The page's endpoints (the same as edges' nodes). */
  nodes: Array<WebhookEndpoint>;
  /** Where the page starts and ends, and whether endpoints follow or precede it. */
  pageInfo: PageInfo;
};

/** An endpoint and its cursor. */
export type WebhookEndpointEdge = {
  __typename?: 'WebhookEndpointEdge';
  /** Pass as after to continue after this endpoint. */
  cursor: Scalars['String']['output'];
  /** The endpoint. */
  node: WebhookEndpoint;
};

/** A new endpoint, or a rotated secret: the secret is shown this once. */
export type WebhookEndpointSecret = {
  __typename?: 'WebhookEndpointSecret';
  /** The endpoint. */
  endpoint: WebhookEndpoint;
  /** whsec_<base64>: the key receivers verify signatures with. Never shown again. */
  secret: Scalars['String']['output'];
};

/** How a webhook endpoint's deliveries are shaped and signed. */
export type WebhookFormat =
  /** For legacy receivers: TRANSACTION_CREATED only, the bare transaction object as the body, X-PayJoy-Signature. */
  | 'PAYJOY_V1'
  /**
   * The Standard Webhooks specification: body { type, timestamp, data }, headers webhook-id, webhook-timestamp,
   * webhook-signature.
   */
  | 'STANDARD';



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
  AccessToken: ResolverTypeWrapper<AccessTokenParent>;
  Address: ResolverTypeWrapper<MerchantRow>;
  AddressInput: AddressInput;
  Adjustment: ResolverTypeWrapper<AdjustmentRow>;
  AdjustmentKind: AdjustmentKind;
  AdjustmentTransaction: ResolverTypeWrapper<ListedTransactionRow>;
  AgeingBucket: AgeingBucket;
  ApiKey: ResolverTypeWrapper<ApiKeyRow>;
  ApiKeyKind: ApiKeyKind;
  AuditActorKind: AuditActorKind;
  AuditEvent: ResolverTypeWrapper<AuditEventRow>;
  AuditEventConnection: ResolverTypeWrapper<AuditEventPage>;
  AuditEventEdge: ResolverTypeWrapper<AuditEventEdgeParent>;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  Cart: ResolverTypeWrapper<CartRow>;
  CashTransaction: ResolverTypeWrapper<ListedTransactionRow>;
  Clerk: ResolverTypeWrapper<ClerkRow>;
  CloseFinanceOrderInput: CloseFinanceOrderInput;
  CommissionTransaction: ResolverTypeWrapper<ListedTransactionRow>;
  CreateAdjustmentInput: CreateAdjustmentInput;
  CreateApiKeyInput: CreateApiKeyInput;
  CreateCartInput: CreateCartInput;
  CreateClerkInput: CreateClerkInput;
  CreateCustomerInput: CreateCustomerInput;
  CreateDeviceInput: CreateDeviceInput;
  CreateDeviceModelInput: CreateDeviceModelInput;
  CreateMerchantInput: CreateMerchantInput;
  CreatePartnerInput: CreatePartnerInput;
  CreatePaymentReferenceInput: CreatePaymentReferenceInput;
  CreatePaymentVendorInput: CreatePaymentVendorInput;
  CreateReportRunInput: CreateReportRunInput;
  CreateWebhookEndpointInput: CreateWebhookEndpointInput;
  CreatedApiKey: ResolverTypeWrapper<CreatedApiKeyParent>;
  CurrencyCode: ResolverTypeWrapper<Scalars['CurrencyCode']['output']>;
  Customer: ResolverTypeWrapper<CustomerParent>;
  CustomerConnection: ResolverTypeWrapper<CustomerConnectionParent>;
  CustomerEdge: ResolverTypeWrapper<CustomerEdgeParent>;
  Decimal: ResolverTypeWrapper<Scalars['Decimal']['output']>;
  DeliveryAttempt: ResolverTypeWrapper<WebhookAttemptRow>;
  Device: ResolverTypeWrapper<DeviceParent>;
  DeviceCheckin: ResolverTypeWrapper<DeviceCheckin>;
  DeviceCommand: ResolverTypeWrapper<DeviceCommandRow>;
  DeviceCommandConnection: ResolverTypeWrapper<DeviceCommandConnectionParent>;
  DeviceCommandEdge: ResolverTypeWrapper<DeviceCommandEdgeParent>;
  DeviceCommandStatus: DeviceCommandStatus;
  DeviceCommandType: DeviceCommandType;
  DeviceConnection: ResolverTypeWrapper<DeviceConnectionParent>;
  DeviceEdge: ResolverTypeWrapper<DeviceEdgeParent>;
  DeviceFamily: ResolverTypeWrapper<DeviceFamilyRow>;
  DeviceFilter: DeviceFilter;
  DeviceModel: ResolverTypeWrapper<DeviceModelRow>;
  DeviceModelConnection: ResolverTypeWrapper<DeviceModelConnectionParent>;
  DeviceModelEdge: ResolverTypeWrapper<DeviceModelEdgeParent>;
  DeviceRepayment: ResolverTypeWrapper<DeviceRepaymentParent>;
  Event: ResolverTypeWrapper<EventRow>;
  EventConnection: ResolverTypeWrapper<EventPage>;
  EventEdge: ResolverTypeWrapper<EventEdgeParent>;
  EventType: EventType;
  FinanceCartInput: FinanceCartInput;
  FinanceOrder: ResolverTypeWrapper<FinanceOrderParent>;
  FinanceOrderCloseReason: FinanceOrderCloseReason;
  FinanceOrderConnection: ResolverTypeWrapper<FinanceOrderConnectionParent>;
  FinanceOrderEdge: ResolverTypeWrapper<FinanceOrderEdgeParent>;
  FinanceOrderStatus: FinanceOrderStatus;
  FinanceTransaction: ResolverTypeWrapper<ListedTransactionRow>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  Installment: ResolverTypeWrapper<InstallmentParent>;
  InstallmentStatus: InstallmentStatus;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  IssuedDeviceCredential: ResolverTypeWrapper<Omit<IssuedDeviceCredential, 'device'> & { device: ResolversTypes['Device'] }>;
  JSON: ResolverTypeWrapper<Scalars['JSON']['output']>;
  Merchant: ResolverTypeWrapper<MerchantRow>;
  Mutation: ResolverTypeWrapper<Record<PropertyKey, never>>;
  PageInfo: ResolverTypeWrapper<PageInfoParent>;
  Partner: ResolverTypeWrapper<PartnerRow>;
  PartnerSettings: ResolverTypeWrapper<PartnerSettingsParent>;
  Payment: ResolverTypeWrapper<PaymentParent>;
  PaymentChannel: PaymentChannel;
  PaymentNotificationResult: ResolverTypeWrapper<PaymentNotificationParent>;
  PaymentOption: ResolverTypeWrapper<PaymentOptionParent>;
  PaymentOptionType: PaymentOptionType;
  PaymentReceipt: ResolverTypeWrapper<PaymentReceiptParent>;
  PaymentReference: ResolverTypeWrapper<PaymentReferenceRow>;
  PaymentReferenceConnection: ResolverTypeWrapper<PaymentReferenceConnectionParent>;
  PaymentReferenceEdge: ResolverTypeWrapper<PaymentReferenceEdgeParent>;
  PaymentReferenceStatus: PaymentReferenceStatus;
  PaymentReversal: ResolverTypeWrapper<PaymentReversalParent>;
  PaymentVendor: ResolverTypeWrapper<PaymentVendorRow>;
  PortfolioAgeing: ResolverTypeWrapper<PortfolioAgeingParent>;
  PortfolioAgeingBucket: ResolverTypeWrapper<AgeingBucketParent>;
  PortfolioGroupBy: PortfolioGroupBy;
  PortfolioHistoryPoint: ResolverTypeWrapper<PortfolioHistoryPointParent>;
  PortfolioInterval: PortfolioInterval;
  PortfolioMetrics: ResolverTypeWrapper<PortfolioSums>;
  PrincipalKind: PrincipalKind;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  RecordInStorePaymentInput: RecordInStorePaymentInput;
  Repayment: ResolverTypeWrapper<RepaymentParent>;
  RepaymentOption: ResolverTypeWrapper<RepaymentOptionParent>;
  ReportRun: ResolverTypeWrapper<ReportRunRow>;
  ReportRunConnection: ResolverTypeWrapper<ReportRunConnectionParent>;
  ReportRunEdge: ResolverTypeWrapper<ReportRunEdgeParent>;
  ReportRunState: ReportRunState;
  ReportType: ReportType;
  ReversePaymentInput: ReversePaymentInput;
  RevokedDeviceCredential: ResolverTypeWrapper<Omit<RevokedDeviceCredential, 'device'> & { device: ResolversTypes['Device'] }>;
  SandboxClock: ResolverTypeWrapper<SandboxClockView>;
  SecureStatus: SecureStatus;
  SendDeviceCommandInput: SendDeviceCommandInput;
  SetSandboxClockInput: SetSandboxClockInput;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  Subscription: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Timestamp: ResolverTypeWrapper<Scalars['Timestamp']['output']>;
  Transaction: ResolverTypeWrapper<ListedTransactionRow>;
  TransactionConnection: ResolverTypeWrapper<TransactionConnectionParent>;
  TransactionEdge: ResolverTypeWrapper<ListedTransactionRow>;
  TransactionType: TransactionType;
  UpdatePartnerSettingsInput: UpdatePartnerSettingsInput;
  UpdatePaymentVendorInput: UpdatePaymentVendorInput;
  UpdateWebhookEndpointInput: UpdateWebhookEndpointInput;
  VendorPaymentReversalInput: VendorPaymentReversalInput;
  Viewer: ResolverTypeWrapper<Principal>;
  WebhookDelivery: ResolverTypeWrapper<WebhookDeliveryRow>;
  WebhookDeliveryConnection: ResolverTypeWrapper<WebhookDeliveryConnectionParent>;
  WebhookDeliveryEdge: ResolverTypeWrapper<WebhookDeliveryEdgeParent>;
  WebhookDeliveryStatus: WebhookDeliveryStatus;
  WebhookEndpoint: ResolverTypeWrapper<WebhookEndpointRow>;
  WebhookEndpointConnection: ResolverTypeWrapper<WebhookEndpointConnectionParent>;
  WebhookEndpointEdge: ResolverTypeWrapper<WebhookEndpointEdgeParent>;
  WebhookEndpointSecret: ResolverTypeWrapper<WebhookEndpointSecretParent>;
  WebhookFormat: WebhookFormat;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  AccessToken: AccessTokenParent;
  Address: MerchantRow;
  AddressInput: AddressInput;
  Adjustment: AdjustmentRow;
  AdjustmentTransaction: ListedTransactionRow;
  ApiKey: ApiKeyRow;
  AuditEvent: AuditEventRow;
  AuditEventConnection: AuditEventPage;
  AuditEventEdge: AuditEventEdgeParent;
  Boolean: Scalars['Boolean']['output'];
  Cart: CartRow;
  CashTransaction: ListedTransactionRow;
  Clerk: ClerkRow;
  CloseFinanceOrderInput: CloseFinanceOrderInput;
  CommissionTransaction: ListedTransactionRow;
  CreateAdjustmentInput: CreateAdjustmentInput;
  CreateApiKeyInput: CreateApiKeyInput;
  CreateCartInput: CreateCartInput;
  CreateClerkInput: CreateClerkInput;
  CreateCustomerInput: CreateCustomerInput;
  CreateDeviceInput: CreateDeviceInput;
  CreateDeviceModelInput: CreateDeviceModelInput;
  CreateMerchantInput: CreateMerchantInput;
  CreatePartnerInput: CreatePartnerInput;
  CreatePaymentReferenceInput: CreatePaymentReferenceInput;
  CreatePaymentVendorInput: CreatePaymentVendorInput;
  CreateReportRunInput: CreateReportRunInput;
  CreateWebhookEndpointInput: CreateWebhookEndpointInput;
  CreatedApiKey: CreatedApiKeyParent;
  CurrencyCode: Scalars['CurrencyCode']['output'];
  Customer: CustomerParent;
  CustomerConnection: CustomerConnectionParent;
  CustomerEdge: CustomerEdgeParent;
  Decimal: Scalars['Decimal']['output'];
  DeliveryAttempt: WebhookAttemptRow;
  Device: DeviceParent;
  DeviceCheckin: DeviceCheckin;
  DeviceCommand: DeviceCommandRow;
  DeviceCommandConnection: DeviceCommandConnectionParent;
  DeviceCommandEdge: DeviceCommandEdgeParent;
  DeviceConnection: DeviceConnectionParent;
  DeviceEdge: DeviceEdgeParent;
  DeviceFamily: DeviceFamilyRow;
  DeviceFilter: DeviceFilter;
  DeviceModel: DeviceModelRow;
  DeviceModelConnection: DeviceModelConnectionParent;
  DeviceModelEdge: DeviceModelEdgeParent;
  DeviceRepayment: DeviceRepaymentParent;
  Event: EventRow;
  EventConnection: EventPage;
  EventEdge: EventEdgeParent;
  FinanceCartInput: FinanceCartInput;
  FinanceOrder: FinanceOrderParent;
  FinanceOrderConnection: FinanceOrderConnectionParent;
  FinanceOrderEdge: FinanceOrderEdgeParent;
  FinanceTransaction: ListedTransactionRow;
  ID: Scalars['ID']['output'];
  Installment: InstallmentParent;
  Int: Scalars['Int']['output'];
  IssuedDeviceCredential: Omit<IssuedDeviceCredential, 'device'> & { device: ResolversParentTypes['Device'] };
  JSON: Scalars['JSON']['output'];
  Merchant: MerchantRow;
  Mutation: Record<PropertyKey, never>;
  PageInfo: PageInfoParent;
  Partner: PartnerRow;
  PartnerSettings: PartnerSettingsParent;
  Payment: PaymentParent;
  PaymentNotificationResult: PaymentNotificationParent;
  PaymentOption: PaymentOptionParent;
  PaymentReceipt: PaymentReceiptParent;
  PaymentReference: PaymentReferenceRow;
  PaymentReferenceConnection: PaymentReferenceConnectionParent;
  PaymentReferenceEdge: PaymentReferenceEdgeParent;
  PaymentReversal: PaymentReversalParent;
  PaymentVendor: PaymentVendorRow;
  PortfolioAgeing: PortfolioAgeingParent;
  PortfolioAgeingBucket: AgeingBucketParent;
  PortfolioHistoryPoint: PortfolioHistoryPointParent;
  PortfolioMetrics: PortfolioSums;
  Query: Record<PropertyKey, never>;
  RecordInStorePaymentInput: RecordInStorePaymentInput;
  Repayment: RepaymentParent;
  RepaymentOption: RepaymentOptionParent;
  ReportRun: ReportRunRow;
  ReportRunConnection: ReportRunConnectionParent;
  ReportRunEdge: ReportRunEdgeParent;
  ReversePaymentInput: ReversePaymentInput;
  RevokedDeviceCredential: Omit<RevokedDeviceCredential, 'device'> & { device: ResolversParentTypes['Device'] };
  SandboxClock: SandboxClockView;
  SendDeviceCommandInput: SendDeviceCommandInput;
  SetSandboxClockInput: SetSandboxClockInput;
  String: Scalars['String']['output'];
  Subscription: Record<PropertyKey, never>;
  Timestamp: Scalars['Timestamp']['output'];
  Transaction: ListedTransactionRow;
  TransactionConnection: TransactionConnectionParent;
  TransactionEdge: ListedTransactionRow;
  UpdatePartnerSettingsInput: UpdatePartnerSettingsInput;
  UpdatePaymentVendorInput: UpdatePaymentVendorInput;
  UpdateWebhookEndpointInput: UpdateWebhookEndpointInput;
  VendorPaymentReversalInput: VendorPaymentReversalInput;
  Viewer: Principal;
  WebhookDelivery: WebhookDeliveryRow;
  WebhookDeliveryConnection: WebhookDeliveryConnectionParent;
  WebhookDeliveryEdge: WebhookDeliveryEdgeParent;
  WebhookEndpoint: WebhookEndpointRow;
  WebhookEndpointConnection: WebhookEndpointConnectionParent;
  WebhookEndpointEdge: WebhookEndpointEdgeParent;
  WebhookEndpointSecret: WebhookEndpointSecretParent;
};

export type ListSizeDirectiveArgs = {
  assumedSize: Scalars['Int']['input'];
  sizedFields?: Maybe<Array<Scalars['String']['input']>>;
  slicingArguments?: Maybe<Array<Scalars['String']['input']>>;
};

export type ListSizeDirectiveResolver<Result, Parent, ContextType = Context, Args = ListSizeDirectiveArgs> = DirectiveResolverFn<Result, Parent, ContextType, Args>;

export type AccessTokenResolvers<ContextType = Context, ParentType extends ResolversParentTypes['AccessToken'] = ResolversParentTypes['AccessToken']> = {
  accessToken?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  expiresAt?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  expiresIn?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  tokenType?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type AddressResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Address'] = ResolversParentTypes['Address']> = {
  city?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  country?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  postalCode?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  state?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  street?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  street2?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type AdjustmentResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Adjustment'] = ResolversParentTypes['Adjustment']> = {
  amount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  currency?: Resolver<ResolversTypes['CurrencyCode'], ParentType, ContextType>;
  financeOrder?: Resolver<Maybe<ResolversTypes['FinanceOrder']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['AdjustmentKind'], ParentType, ContextType>;
  merchant?: Resolver<ResolversTypes['Merchant'], ParentType, ContextType>;
  notes?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  time?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
};

export type AdjustmentTransactionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['AdjustmentTransaction'] = ResolversParentTypes['AdjustmentTransaction']> = {
  adjustment?: Resolver<ResolversTypes['Adjustment'], ParentType, ContextType>;
  amount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  currency?: Resolver<ResolversTypes['CurrencyCode'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  merchant?: Resolver<ResolversTypes['Merchant'], ParentType, ContextType>;
  time?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  type?: Resolver<ResolversTypes['TransactionType'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type ApiKeyResolvers<ContextType = Context, ParentType extends ResolversParentTypes['ApiKey'] = ResolversParentTypes['ApiKey']> = {
  active?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  displayPrefix?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  expiresAt?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['ApiKeyKind'], ParentType, ContextType>;
  label?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  operatorId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  partner?: Resolver<Maybe<ResolversTypes['Partner']>, ParentType, ContextType>;
  paymentVendor?: Resolver<Maybe<ResolversTypes['PaymentVendor']>, ParentType, ContextType>;
  revokedAt?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
};

export type AuditEventResolvers<ContextType = Context, ParentType extends ResolversParentTypes['AuditEvent'] = ResolversParentTypes['AuditEvent']> = {
  action?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  actorId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  actorKeyId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  actorKind?: Resolver<ResolversTypes['AuditActorKind'], ParentType, ContextType>;
  clientAddress?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  details?: Resolver<ResolversTypes['JSON'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  partnerId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  requestId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  subjectId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  subjectKind?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  time?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
};

export type AuditEventConnectionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['AuditEventConnection'] = ResolversParentTypes['AuditEventConnection']> = {
  edges?: Resolver<Array<ResolversTypes['AuditEventEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['AuditEvent']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type AuditEventEdgeResolvers<ContextType = Context, ParentType extends ResolversParentTypes['AuditEventEdge'] = ResolversParentTypes['AuditEventEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['AuditEvent'], ParentType, ContextType>;
};

export type CartResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Cart'] = ResolversParentTypes['Cart']> = {
  cartTag?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  currency?: Resolver<ResolversTypes['CurrencyCode'], ParentType, ContextType>;
  customer?: Resolver<ResolversTypes['Customer'], ParentType, ContextType>;
  deviceDescription?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  deviceModel?: Resolver<ResolversTypes['DeviceModel'], ParentType, ContextType>;
  downPayment?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  financeAmount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  financeOrder?: Resolver<Maybe<ResolversTypes['FinanceOrder']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  merchant?: Resolver<ResolversTypes['Merchant'], ParentType, ContextType>;
  monthlyCost?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  months?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  pricePreTax?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  purchaseAmount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  salesClerk?: Resolver<ResolversTypes['Clerk'], ParentType, ContextType>;
  weeklyCost?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
};

export type CashTransactionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['CashTransaction'] = ResolversParentTypes['CashTransaction']> = {
  amount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  currency?: Resolver<ResolversTypes['CurrencyCode'], ParentType, ContextType>;
  financeOrder?: Resolver<ResolversTypes['FinanceOrder'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  merchant?: Resolver<ResolversTypes['Merchant'], ParentType, ContextType>;
  payment?: Resolver<ResolversTypes['Payment'], ParentType, ContextType>;
  salesClerk?: Resolver<ResolversTypes['Clerk'], ParentType, ContextType>;
  time?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  type?: Resolver<ResolversTypes['TransactionType'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type ClerkResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Clerk'] = ResolversParentTypes['Clerk']> = {
  email?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  personUuid?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  phoneNumber?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type CommissionTransactionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['CommissionTransaction'] = ResolversParentTypes['CommissionTransaction']> = {
  amount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  currency?: Resolver<ResolversTypes['CurrencyCode'], ParentType, ContextType>;
  financeOrder?: Resolver<ResolversTypes['FinanceOrder'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  merchant?: Resolver<ResolversTypes['Merchant'], ParentType, ContextType>;
  payment?: Resolver<ResolversTypes['Payment'], ParentType, ContextType>;
  time?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  type?: Resolver<ResolversTypes['TransactionType'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type CreatedApiKeyResolvers<ContextType = Context, ParentType extends ResolversParentTypes['CreatedApiKey'] = ResolversParentTypes['CreatedApiKey']> = {
  apiKey?: Resolver<ResolversTypes['ApiKey'], ParentType, ContextType>;
  secret?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export interface CurrencyCodeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['CurrencyCode'], any> {
  name: 'CurrencyCode';
}

export type CustomerResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Customer'] = ResolversParentTypes['Customer']> = {
  address?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType, RequireFields<CustomerAddressArgs, 'reveal'>>;
  createdAt?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  devices?: Resolver<ResolversTypes['DeviceConnection'], ParentType, ContextType, RequireFields<CustomerDevicesArgs, 'first'>>;
  email?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType, RequireFields<CustomerEmailArgs, 'reveal'>>;
  financeOrder?: Resolver<Maybe<ResolversTypes['FinanceOrder']>, ParentType, ContextType>;
  financeOrders?: Resolver<ResolversTypes['FinanceOrderConnection'], ParentType, ContextType, RequireFields<CustomerFinanceOrdersArgs, 'first'>>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  nationalId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType, RequireFields<CustomerNationalIdArgs, 'reveal'>>;
  phoneNumber?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type CustomerConnectionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['CustomerConnection'] = ResolversParentTypes['CustomerConnection']> = {
  edges?: Resolver<Array<ResolversTypes['CustomerEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['Customer']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
};

export type CustomerEdgeResolvers<ContextType = Context, ParentType extends ResolversParentTypes['CustomerEdge'] = ResolversParentTypes['CustomerEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Customer'], ParentType, ContextType>;
};

export interface DecimalScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['Decimal'], any> {
  name: 'Decimal';
}

export type DeliveryAttemptResolvers<ContextType = Context, ParentType extends ResolversParentTypes['DeliveryAttempt'] = ResolversParentTypes['DeliveryAttempt']> = {
  at?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  error?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  latencyMs?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  response?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  statusCode?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
};

export type DeviceResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Device'] = ResolversParentTypes['Device']> = {
  commands?: Resolver<ResolversTypes['DeviceCommandConnection'], ParentType, ContextType, RequireFields<DeviceCommandsArgs, 'first'>>;
  customer?: Resolver<Maybe<ResolversTypes['Customer']>, ParentType, ContextType>;
  description?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  events?: Resolver<ResolversTypes['EventConnection'], ParentType, ContextType, RequireFields<DeviceEventsArgs, 'first'>>;
  family?: Resolver<ResolversTypes['DeviceFamily'], ParentType, ContextType>;
  financeOrder?: Resolver<Maybe<ResolversTypes['FinanceOrder']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  imei?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  lastCheckin?: Resolver<Maybe<ResolversTypes['DeviceCheckin']>, ParentType, ContextType>;
  lastSeen?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  model?: Resolver<ResolversTypes['DeviceModel'], ParentType, ContextType>;
  phoneNumber?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  secureStatus?: Resolver<Maybe<ResolversTypes['SecureStatus']>, ParentType, ContextType>;
  silentSince?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  simNumber?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  tag?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  validThrough?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
};

export type DeviceCheckinResolvers<ContextType = Context, ParentType extends ResolversParentTypes['DeviceCheckin'] = ResolversParentTypes['DeviceCheckin']> = {
  appVersion?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  at?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  simNumber?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type DeviceCommandResolvers<ContextType = Context, ParentType extends ResolversParentTypes['DeviceCommand'] = ResolversParentTypes['DeviceCommand']> = {
  acknowledgedAt?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  deliveredAt?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  hours?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  message?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['DeviceCommandStatus'], ParentType, ContextType>;
  type?: Resolver<ResolversTypes['DeviceCommandType'], ParentType, ContextType>;
};

export type DeviceCommandConnectionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['DeviceCommandConnection'] = ResolversParentTypes['DeviceCommandConnection']> = {
  edges?: Resolver<Array<ResolversTypes['DeviceCommandEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['DeviceCommand']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
};

export type DeviceCommandEdgeResolvers<ContextType = Context, ParentType extends ResolversParentTypes['DeviceCommandEdge'] = ResolversParentTypes['DeviceCommandEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['DeviceCommand'], ParentType, ContextType>;
};

export type DeviceConnectionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['DeviceConnection'] = ResolversParentTypes['DeviceConnection']> = {
  edges?: Resolver<Array<ResolversTypes['DeviceEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['Device']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
};

export type DeviceEdgeResolvers<ContextType = Context, ParentType extends ResolversParentTypes['DeviceEdge'] = ResolversParentTypes['DeviceEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Device'], ParentType, ContextType>;
};

export type DeviceFamilyResolvers<ContextType = Context, ParentType extends ResolversParentTypes['DeviceFamily'] = ResolversParentTypes['DeviceFamily']> = {
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  models?: Resolver<ResolversTypes['DeviceModelConnection'], ParentType, ContextType, RequireFields<DeviceFamilyModelsArgs, 'first'>>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type DeviceModelResolvers<ContextType = Context, ParentType extends ResolversParentTypes['DeviceModel'] = ResolversParentTypes['DeviceModel']> = {
  family?: Resolver<ResolversTypes['DeviceFamily'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  makeModel?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type DeviceModelConnectionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['DeviceModelConnection'] = ResolversParentTypes['DeviceModelConnection']> = {
  edges?: Resolver<Array<ResolversTypes['DeviceModelEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['DeviceModel']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
};

export type DeviceModelEdgeResolvers<ContextType = Context, ParentType extends ResolversParentTypes['DeviceModelEdge'] = ResolversParentTypes['DeviceModelEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['DeviceModel'], ParentType, ContextType>;
};

export type DeviceRepaymentResolvers<ContextType = Context, ParentType extends ResolversParentTypes['DeviceRepayment'] = ResolversParentTypes['DeviceRepayment']> = {
  currency?: Resolver<ResolversTypes['CurrencyCode'], ParentType, ContextType>;
  deviceTag?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  financeOrderId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  lockAt?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  repayment?: Resolver<ResolversTypes['Repayment'], ParentType, ContextType>;
};

export type EventResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Event'] = ResolversParentTypes['Event']> = {
  data?: Resolver<ResolversTypes['JSON'], ParentType, ContextType>;
  deliveries?: Resolver<Array<ResolversTypes['WebhookDelivery']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  occurredAt?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  partner?: Resolver<Maybe<ResolversTypes['Partner']>, ParentType, ContextType>;
  sequence?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  type?: Resolver<ResolversTypes['EventType'], ParentType, ContextType>;
};

export type EventConnectionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['EventConnection'] = ResolversParentTypes['EventConnection']> = {
  edges?: Resolver<Array<ResolversTypes['EventEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['Event']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
};

export type EventEdgeResolvers<ContextType = Context, ParentType extends ResolversParentTypes['EventEdge'] = ResolversParentTypes['EventEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Event'], ParentType, ContextType>;
};

export type FinanceOrderResolvers<ContextType = Context, ParentType extends ResolversParentTypes['FinanceOrder'] = ResolversParentTypes['FinanceOrder']> = {
  cart?: Resolver<Maybe<ResolversTypes['Cart']>, ParentType, ContextType>;
  closedAt?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  closedNote?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  closedReason?: Resolver<Maybe<ResolversTypes['FinanceOrderCloseReason']>, ParentType, ContextType>;
  currency?: Resolver<ResolversTypes['CurrencyCode'], ParentType, ContextType>;
  customer?: Resolver<ResolversTypes['Customer'], ParentType, ContextType>;
  device?: Resolver<ResolversTypes['Device'], ParentType, ContextType>;
  downPayment?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  financeAmount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  fullyPaid?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  lockAt?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  merchant?: Resolver<ResolversTypes['Merchant'], ParentType, ContextType>;
  monthlyCost?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  months?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  nextPayment?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  paidThrough?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  paymentOptions?: Resolver<Array<ResolversTypes['PaymentOption']>, ParentType, ContextType>;
  paymentReferences?: Resolver<ResolversTypes['PaymentReferenceConnection'], ParentType, ContextType, RequireFields<FinanceOrderPaymentReferencesArgs, 'first'>>;
  payments?: Resolver<Array<ResolversTypes['Payment']>, ParentType, ContextType, Partial<FinanceOrderPaymentsArgs>>;
  pricePreTax?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  purchaseAmount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  releaseAt?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  remainingBalance?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  repayableTotal?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  repayment?: Resolver<ResolversTypes['Repayment'], ParentType, ContextType>;
  salesClerk?: Resolver<ResolversTypes['Clerk'], ParentType, ContextType>;
  schedule?: Resolver<Array<ResolversTypes['Installment']>, ParentType, ContextType>;
  secureStatus?: Resolver<ResolversTypes['SecureStatus'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['FinanceOrderStatus'], ParentType, ContextType>;
  time?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  totalPaid?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  weeklyCost?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
};

export type FinanceOrderConnectionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['FinanceOrderConnection'] = ResolversParentTypes['FinanceOrderConnection']> = {
  edges?: Resolver<Array<ResolversTypes['FinanceOrderEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['FinanceOrder']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
};

export type FinanceOrderEdgeResolvers<ContextType = Context, ParentType extends ResolversParentTypes['FinanceOrderEdge'] = ResolversParentTypes['FinanceOrderEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['FinanceOrder'], ParentType, ContextType>;
};

export type FinanceTransactionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['FinanceTransaction'] = ResolversParentTypes['FinanceTransaction']> = {
  amount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  currency?: Resolver<ResolversTypes['CurrencyCode'], ParentType, ContextType>;
  device?: Resolver<ResolversTypes['Device'], ParentType, ContextType>;
  financeOrder?: Resolver<ResolversTypes['FinanceOrder'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  merchant?: Resolver<ResolversTypes['Merchant'], ParentType, ContextType>;
  salesClerk?: Resolver<ResolversTypes['Clerk'], ParentType, ContextType>;
  time?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  type?: Resolver<ResolversTypes['TransactionType'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type InstallmentResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Installment'] = ResolversParentTypes['Installment']> = {
  amount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  dueAt?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  number?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  paid?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['InstallmentStatus'], ParentType, ContextType>;
};

export type IssuedDeviceCredentialResolvers<ContextType = Context, ParentType extends ResolversParentTypes['IssuedDeviceCredential'] = ResolversParentTypes['IssuedDeviceCredential']> = {
  credential?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  device?: Resolver<ResolversTypes['Device'], ParentType, ContextType>;
};

export interface JsonScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['JSON'], any> {
  name: 'JSON';
}

export type MerchantResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Merchant'] = ResolversParentTypes['Merchant']> = {
  address?: Resolver<ResolversTypes['Address'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  phoneNumber?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type MutationResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = {
  cancelPaymentReference?: Resolver<ResolversTypes['PaymentReference'], ParentType, ContextType, RequireFields<MutationCancelPaymentReferenceArgs, 'code'>>;
  closeFinanceOrder?: Resolver<ResolversTypes['FinanceOrder'], ParentType, ContextType, RequireFields<MutationCloseFinanceOrderArgs, 'input'>>;
  createAccessToken?: Resolver<ResolversTypes['AccessToken'], ParentType, ContextType, RequireFields<MutationCreateAccessTokenArgs, 'apiKey'>>;
  createAdjustment?: Resolver<ResolversTypes['Adjustment'], ParentType, ContextType, RequireFields<MutationCreateAdjustmentArgs, 'input'>>;
  createApiKey?: Resolver<ResolversTypes['CreatedApiKey'], ParentType, ContextType, RequireFields<MutationCreateApiKeyArgs, 'input'>>;
  createCart?: Resolver<ResolversTypes['Cart'], ParentType, ContextType, RequireFields<MutationCreateCartArgs, 'input'>>;
  createClerk?: Resolver<ResolversTypes['Clerk'], ParentType, ContextType, RequireFields<MutationCreateClerkArgs, 'input'>>;
  createCustomer?: Resolver<ResolversTypes['Customer'], ParentType, ContextType, RequireFields<MutationCreateCustomerArgs, 'input'>>;
  createDevice?: Resolver<ResolversTypes['Device'], ParentType, ContextType, RequireFields<MutationCreateDeviceArgs, 'input'>>;
  createDeviceFamily?: Resolver<ResolversTypes['DeviceFamily'], ParentType, ContextType, RequireFields<MutationCreateDeviceFamilyArgs, 'name'>>;
  createDeviceModel?: Resolver<ResolversTypes['DeviceModel'], ParentType, ContextType, RequireFields<MutationCreateDeviceModelArgs, 'input'>>;
  createMerchant?: Resolver<ResolversTypes['Merchant'], ParentType, ContextType, RequireFields<MutationCreateMerchantArgs, 'input'>>;
  createPartner?: Resolver<ResolversTypes['Partner'], ParentType, ContextType, RequireFields<MutationCreatePartnerArgs, 'input'>>;
  createPaymentNotification?: Resolver<Maybe<ResolversTypes['PaymentNotificationResult']>, ParentType, ContextType, RequireFields<MutationCreatePaymentNotificationArgs, 'notification'>>;
  createPaymentReference?: Resolver<ResolversTypes['PaymentReference'], ParentType, ContextType, RequireFields<MutationCreatePaymentReferenceArgs, 'input'>>;
  createPaymentVendor?: Resolver<ResolversTypes['PaymentVendor'], ParentType, ContextType, RequireFields<MutationCreatePaymentVendorArgs, 'input'>>;
  createReportRun?: Resolver<ResolversTypes['ReportRun'], ParentType, ContextType, RequireFields<MutationCreateReportRunArgs, 'input'>>;
  createWebhookEndpoint?: Resolver<ResolversTypes['WebhookEndpointSecret'], ParentType, ContextType, RequireFields<MutationCreateWebhookEndpointArgs, 'input'>>;
  deleteWebhookEndpoint?: Resolver<ResolversTypes['WebhookEndpoint'], ParentType, ContextType, RequireFields<MutationDeleteWebhookEndpointArgs, 'id'>>;
  financeCart?: Resolver<ResolversTypes['FinanceOrder'], ParentType, ContextType, RequireFields<MutationFinanceCartArgs, 'input'>>;
  issueDeviceCredential?: Resolver<ResolversTypes['IssuedDeviceCredential'], ParentType, ContextType, RequireFields<MutationIssueDeviceCredentialArgs, 'deviceId'>>;
  recordInStorePayment?: Resolver<ResolversTypes['PaymentReceipt'], ParentType, ContextType, RequireFields<MutationRecordInStorePaymentArgs, 'input'>>;
  redeliverEvent?: Resolver<Maybe<ResolversTypes['WebhookDelivery']>, ParentType, ContextType, RequireFields<MutationRedeliverEventArgs, 'endpointId' | 'eventId'>>;
  resetSandboxClock?: Resolver<ResolversTypes['SandboxClock'], ParentType, ContextType, RequireFields<MutationResetSandboxClockArgs, 'partnerId'>>;
  reversePayment?: Resolver<ResolversTypes['PaymentReversal'], ParentType, ContextType, RequireFields<MutationReversePaymentArgs, 'input'>>;
  reverseVendorPayment?: Resolver<ResolversTypes['PaymentReversal'], ParentType, ContextType, RequireFields<MutationReverseVendorPaymentArgs, 'input'>>;
  revokeApiKey?: Resolver<ResolversTypes['ApiKey'], ParentType, ContextType, RequireFields<MutationRevokeApiKeyArgs, 'id'>>;
  revokeDeviceCredential?: Resolver<ResolversTypes['RevokedDeviceCredential'], ParentType, ContextType, RequireFields<MutationRevokeDeviceCredentialArgs, 'deviceId'>>;
  rotateWebhookSecret?: Resolver<ResolversTypes['WebhookEndpointSecret'], ParentType, ContextType, RequireFields<MutationRotateWebhookSecretArgs, 'id'>>;
  sendDeviceCommand?: Resolver<ResolversTypes['DeviceCommand'], ParentType, ContextType, RequireFields<MutationSendDeviceCommandArgs, 'input'>>;
  sendTestWebhook?: Resolver<Maybe<ResolversTypes['WebhookDelivery']>, ParentType, ContextType, RequireFields<MutationSendTestWebhookArgs, 'endpointId'>>;
  setSandboxClock?: Resolver<ResolversTypes['SandboxClock'], ParentType, ContextType, RequireFields<MutationSetSandboxClockArgs, 'input'>>;
  updatePartnerSettings?: Resolver<ResolversTypes['Partner'], ParentType, ContextType, RequireFields<MutationUpdatePartnerSettingsArgs, 'input'>>;
  updatePaymentVendor?: Resolver<ResolversTypes['PaymentVendor'], ParentType, ContextType, RequireFields<MutationUpdatePaymentVendorArgs, 'input'>>;
  updateWebhookEndpoint?: Resolver<ResolversTypes['WebhookEndpoint'], ParentType, ContextType, RequireFields<MutationUpdateWebhookEndpointArgs, 'input'>>;
};

export type PageInfoResolvers<ContextType = Context, ParentType extends ResolversParentTypes['PageInfo'] = ResolversParentTypes['PageInfo']> = {
  endCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  hasPreviousPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  startCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type PartnerResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Partner'] = ResolversParentTypes['Partner']> = {
  clerks?: Resolver<Array<ResolversTypes['Clerk']>, ParentType, ContextType, Partial<PartnerClerksArgs>>;
  commissionRateBasisPoints?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  merchants?: Resolver<Array<ResolversTypes['Merchant']>, ParentType, ContextType, Partial<PartnerMerchantsArgs>>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  nextLockAt?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  sandboxClock?: Resolver<Maybe<ResolversTypes['SandboxClock']>, ParentType, ContextType>;
  settings?: Resolver<ResolversTypes['PartnerSettings'], ParentType, ContextType>;
};

export type PartnerSettingsResolvers<ContextType = Context, ParentType extends ResolversParentTypes['PartnerSettings'] = ResolversParentTypes['PartnerSettings']> = {
  flexibleAmountEnabled?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  lockGraceHours?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  lockReminderDays?: Resolver<Array<ResolversTypes['Int']>, ParentType, ContextType>;
  offlineLockDays?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  repaymentDays?: Resolver<Array<ResolversTypes['Int']>, ParentType, ContextType>;
  reversalWindowHours?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  simControlEnabled?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type PaymentResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Payment'] = ResolversParentTypes['Payment']> = {
  amount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  channel?: Resolver<ResolversTypes['PaymentChannel'], ParentType, ContextType>;
  currency?: Resolver<ResolversTypes['CurrencyCode'], ParentType, ContextType>;
  financeOrder?: Resolver<ResolversTypes['FinanceOrder'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  merchant?: Resolver<Maybe<ResolversTypes['Merchant']>, ParentType, ContextType>;
  paymentVendor?: Resolver<Maybe<ResolversTypes['PaymentVendor']>, ParentType, ContextType>;
  reversal?: Resolver<Maybe<ResolversTypes['PaymentReversal']>, ParentType, ContextType>;
  reversibleUntil?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  salesClerk?: Resolver<Maybe<ResolversTypes['Clerk']>, ParentType, ContextType>;
  time?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  vendorReference?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type PaymentNotificationResultResolvers<ContextType = Context, ParentType extends ResolversParentTypes['PaymentNotificationResult'] = ResolversParentTypes['PaymentNotificationResult']> = {
  message?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  receipt?: Resolver<ResolversTypes['PaymentReceipt'], ParentType, ContextType>;
};

export type PaymentOptionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['PaymentOption'] = ResolversParentTypes['PaymentOption']> = {
  amount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  currency?: Resolver<ResolversTypes['CurrencyCode'], ParentType, ContextType>;
  type?: Resolver<ResolversTypes['PaymentOptionType'], ParentType, ContextType>;
};

export type PaymentReceiptResolvers<ContextType = Context, ParentType extends ResolversParentTypes['PaymentReceipt'] = ResolversParentTypes['PaymentReceipt']> = {
  currency?: Resolver<ResolversTypes['CurrencyCode'], ParentType, ContextType>;
  deviceTag?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  fullyPaid?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  nextPayment?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  payment?: Resolver<ResolversTypes['Payment'], ParentType, ContextType>;
  remainingBalance?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  replayed?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  time?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  unlockCode?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type PaymentReferenceResolvers<ContextType = Context, ParentType extends ResolversParentTypes['PaymentReference'] = ResolversParentTypes['PaymentReference']> = {
  amount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  code?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  currency?: Resolver<ResolversTypes['CurrencyCode'], ParentType, ContextType>;
  daysPaid?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  expiresAt?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  financeOrder?: Resolver<ResolversTypes['FinanceOrder'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  payment?: Resolver<Maybe<ResolversTypes['Payment']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['PaymentReferenceStatus'], ParentType, ContextType>;
};

export type PaymentReferenceConnectionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['PaymentReferenceConnection'] = ResolversParentTypes['PaymentReferenceConnection']> = {
  edges?: Resolver<Array<ResolversTypes['PaymentReferenceEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['PaymentReference']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
};

export type PaymentReferenceEdgeResolvers<ContextType = Context, ParentType extends ResolversParentTypes['PaymentReferenceEdge'] = ResolversParentTypes['PaymentReferenceEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['PaymentReference'], ParentType, ContextType>;
};

export type PaymentReversalResolvers<ContextType = Context, ParentType extends ResolversParentTypes['PaymentReversal'] = ResolversParentTypes['PaymentReversal']> = {
  amount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  currency?: Resolver<ResolversTypes['CurrencyCode'], ParentType, ContextType>;
  fullyPaid?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  lockAt?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  payment?: Resolver<ResolversTypes['Payment'], ParentType, ContextType>;
  reason?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  remainingBalance?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  replayed?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  time?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
};

export type PaymentVendorResolvers<ContextType = Context, ParentType extends ResolversParentTypes['PaymentVendor'] = ResolversParentTypes['PaymentVendor']> = {
  createdAt?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  displayName?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  enabled?: Resolver<Maybe<ResolversTypes['Boolean']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  requestSchema?: Resolver<Maybe<ResolversTypes['JSON']>, ParentType, ContextType>;
};

export type PortfolioAgeingResolvers<ContextType = Context, ParentType extends ResolversParentTypes['PortfolioAgeing'] = ResolversParentTypes['PortfolioAgeing']> = {
  asOf?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  buckets?: Resolver<Array<ResolversTypes['PortfolioAgeingBucket']>, ParentType, ContextType>;
  currency?: Resolver<ResolversTypes['CurrencyCode'], ParentType, ContextType>;
  orders?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  outstanding?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
};

export type PortfolioAgeingBucketResolvers<ContextType = Context, ParentType extends ResolversParentTypes['PortfolioAgeingBucket'] = ResolversParentTypes['PortfolioAgeingBucket']> = {
  bucket?: Resolver<ResolversTypes['AgeingBucket'], ParentType, ContextType>;
  orders?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  outstanding?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
};

export type PortfolioHistoryPointResolvers<ContextType = Context, ParentType extends ResolversParentTypes['PortfolioHistoryPoint'] = ResolversParentTypes['PortfolioHistoryPoint']> = {
  day?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  metrics?: Resolver<ResolversTypes['PortfolioMetrics'], ParentType, ContextType>;
};

export type PortfolioMetricsResolvers<ContextType = Context, ParentType extends ResolversParentTypes['PortfolioMetrics'] = ResolversParentTypes['PortfolioMetrics']> = {
  asOf?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  collectionRate?: Resolver<Maybe<ResolversTypes['Decimal']>, ParentType, ContextType>;
  currency?: Resolver<ResolversTypes['CurrencyCode'], ParentType, ContextType>;
  firstPaymentDefaultRate?: Resolver<Maybe<ResolversTypes['Decimal']>, ParentType, ContextType>;
  group?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  lockedShare?: Resolver<Maybe<ResolversTypes['Decimal']>, ParentType, ContextType>;
  openOrders?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  outstanding?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  par30?: Resolver<Maybe<ResolversTypes['Decimal']>, ParentType, ContextType>;
  par60?: Resolver<Maybe<ResolversTypes['Decimal']>, ParentType, ContextType>;
  par90?: Resolver<Maybe<ResolversTypes['Decimal']>, ParentType, ContextType>;
  writeOffRatio?: Resolver<Maybe<ResolversTypes['Decimal']>, ParentType, ContextType>;
  writtenOff?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
};

export type QueryResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  apiKeys?: Resolver<Array<ResolversTypes['ApiKey']>, ParentType, ContextType, Partial<QueryApiKeysArgs>>;
  auditEvents?: Resolver<ResolversTypes['AuditEventConnection'], ParentType, ContextType, RequireFields<QueryAuditEventsArgs, 'first'>>;
  cart?: Resolver<Maybe<ResolversTypes['Cart']>, ParentType, ContextType, RequireFields<QueryCartArgs, 'cartTag'>>;
  clerk?: Resolver<Maybe<ResolversTypes['Clerk']>, ParentType, ContextType, RequireFields<QueryClerkArgs, 'id'>>;
  clerks?: Resolver<Array<ResolversTypes['Clerk']>, ParentType, ContextType, Partial<QueryClerksArgs>>;
  customer?: Resolver<Maybe<ResolversTypes['Customer']>, ParentType, ContextType, RequireFields<QueryCustomerArgs, 'locator'>>;
  customers?: Resolver<ResolversTypes['CustomerConnection'], ParentType, ContextType, RequireFields<QueryCustomersArgs, 'first'>>;
  device?: Resolver<Maybe<ResolversTypes['Device']>, ParentType, ContextType, Partial<QueryDeviceArgs>>;
  deviceFamilies?: Resolver<Array<ResolversTypes['DeviceFamily']>, ParentType, ContextType, Partial<QueryDeviceFamiliesArgs>>;
  deviceRepayment?: Resolver<ResolversTypes['DeviceRepayment'], ParentType, ContextType, RequireFields<QueryDeviceRepaymentArgs, 'deviceTag'>>;
  devices?: Resolver<ResolversTypes['DeviceConnection'], ParentType, ContextType, RequireFields<QueryDevicesArgs, 'first'>>;
  event?: Resolver<Maybe<ResolversTypes['Event']>, ParentType, ContextType, RequireFields<QueryEventArgs, 'id'>>;
  events?: Resolver<ResolversTypes['EventConnection'], ParentType, ContextType, RequireFields<QueryEventsArgs, 'first'>>;
  financeOrder?: Resolver<Maybe<ResolversTypes['FinanceOrder']>, ParentType, ContextType, RequireFields<QueryFinanceOrderArgs, 'id'>>;
  financeOrders?: Resolver<ResolversTypes['FinanceOrderConnection'], ParentType, ContextType, RequireFields<QueryFinanceOrdersArgs, 'first'>>;
  merchant?: Resolver<Maybe<ResolversTypes['Merchant']>, ParentType, ContextType, RequireFields<QueryMerchantArgs, 'id'>>;
  merchants?: Resolver<Array<ResolversTypes['Merchant']>, ParentType, ContextType, Partial<QueryMerchantsArgs>>;
  partner?: Resolver<Maybe<ResolversTypes['Partner']>, ParentType, ContextType, RequireFields<QueryPartnerArgs, 'id'>>;
  partners?: Resolver<Array<ResolversTypes['Partner']>, ParentType, ContextType, Partial<QueryPartnersArgs>>;
  paymentReference?: Resolver<Maybe<ResolversTypes['PaymentReference']>, ParentType, ContextType, RequireFields<QueryPaymentReferenceArgs, 'code'>>;
  paymentVendors?: Resolver<Array<ResolversTypes['PaymentVendor']>, ParentType, ContextType>;
  portfolioAgeing?: Resolver<Array<ResolversTypes['PortfolioAgeing']>, ParentType, ContextType, RequireFields<QueryPortfolioAgeingArgs, 'partnerId'>>;
  portfolioHistory?: Resolver<Array<ResolversTypes['PortfolioHistoryPoint']>, ParentType, ContextType, RequireFields<QueryPortfolioHistoryArgs, 'from' | 'interval' | 'partnerId' | 'to'>>;
  portfolioMetrics?: Resolver<Array<ResolversTypes['PortfolioMetrics']>, ParentType, ContextType, RequireFields<QueryPortfolioMetricsArgs, 'groupBy' | 'partnerId'>>;
  reportRun?: Resolver<Maybe<ResolversTypes['ReportRun']>, ParentType, ContextType, RequireFields<QueryReportRunArgs, 'id'>>;
  reportRuns?: Resolver<ResolversTypes['ReportRunConnection'], ParentType, ContextType, RequireFields<QueryReportRunsArgs, 'first'>>;
  transactions?: Resolver<ResolversTypes['TransactionConnection'], ParentType, ContextType, RequireFields<QueryTransactionsArgs, 'end' | 'start'>>;
  viewer?: Resolver<ResolversTypes['Viewer'], ParentType, ContextType>;
  webhookEndpoints?: Resolver<ResolversTypes['WebhookEndpointConnection'], ParentType, ContextType, RequireFields<QueryWebhookEndpointsArgs, 'first'>>;
};

export type RepaymentResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Repayment'] = ResolversParentTypes['Repayment']> = {
  daysBoughtBy?: Resolver<ResolversTypes['Int'], ParentType, ContextType, RequireFields<RepaymentDaysBoughtByArgs, 'amount'>>;
  flexibleAmountEnabled?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  fullPayoffAmount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  minimumPaymentAmount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  options?: Resolver<Array<ResolversTypes['RepaymentOption']>, ParentType, ContextType>;
};

export type RepaymentOptionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['RepaymentOption'] = ResolversParentTypes['RepaymentOption']> = {
  amount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  daysPaid?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  lockAt?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
};

export type ReportRunResolvers<ContextType = Context, ParentType extends ResolversParentTypes['ReportRun'] = ResolversParentTypes['ReportRun']> = {
  asOf?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  byteSize?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  downloadUrl?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  end?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  expiresAt?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  failureReason?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  finishedAt?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  partnerId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  rowCount?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  start?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  startedAt?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  state?: Resolver<ResolversTypes['ReportRunState'], ParentType, ContextType>;
  type?: Resolver<ResolversTypes['ReportType'], ParentType, ContextType>;
};

export type ReportRunConnectionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['ReportRunConnection'] = ResolversParentTypes['ReportRunConnection']> = {
  edges?: Resolver<Array<ResolversTypes['ReportRunEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['ReportRun']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
};

export type ReportRunEdgeResolvers<ContextType = Context, ParentType extends ResolversParentTypes['ReportRunEdge'] = ResolversParentTypes['ReportRunEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['ReportRun'], ParentType, ContextType>;
};

export type RevokedDeviceCredentialResolvers<ContextType = Context, ParentType extends ResolversParentTypes['RevokedDeviceCredential'] = ResolversParentTypes['RevokedDeviceCredential']> = {
  device?: Resolver<ResolversTypes['Device'], ParentType, ContextType>;
  revoked?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type SandboxClockResolvers<ContextType = Context, ParentType extends ResolversParentTypes['SandboxClock'] = ResolversParentTypes['SandboxClock']> = {
  now?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  partnerId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  realNow?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
};

export type SubscriptionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Subscription'] = ResolversParentTypes['Subscription']> = {
  events?: SubscriptionResolver<ResolversTypes['Event'], "events", ParentType, ContextType, Partial<SubscriptionEventsArgs>>;
};

export interface TimestampScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['Timestamp'], any> {
  name: 'Timestamp';
}

export type TransactionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Transaction'] = ResolversParentTypes['Transaction']> = {
  __resolveType: TypeResolveFn<'AdjustmentTransaction' | 'CashTransaction' | 'CommissionTransaction' | 'FinanceTransaction', ParentType, ContextType>;
};

export type TransactionConnectionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['TransactionConnection'] = ResolversParentTypes['TransactionConnection']> = {
  edges?: Resolver<Array<ResolversTypes['TransactionEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['Transaction']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
};

export type TransactionEdgeResolvers<ContextType = Context, ParentType extends ResolversParentTypes['TransactionEdge'] = ResolversParentTypes['TransactionEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Transaction'], ParentType, ContextType>;
};

export type ViewerResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Viewer'] = ResolversParentTypes['Viewer']> = {
  keyKind?: Resolver<ResolversTypes['ApiKeyKind'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['PrincipalKind'], ParentType, ContextType>;
  partner?: Resolver<Maybe<ResolversTypes['Partner']>, ParentType, ContextType>;
  paymentVendor?: Resolver<Maybe<ResolversTypes['PaymentVendor']>, ParentType, ContextType>;
  viaAccessToken?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type WebhookDeliveryResolvers<ContextType = Context, ParentType extends ResolversParentTypes['WebhookDelivery'] = ResolversParentTypes['WebhookDelivery']> = {
  attempts?: Resolver<Array<ResolversTypes['DeliveryAttempt']>, ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  deliveredAt?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  endpoint?: Resolver<ResolversTypes['WebhookEndpoint'], ParentType, ContextType>;
  event?: Resolver<ResolversTypes['Event'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  nextAttemptAt?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['WebhookDeliveryStatus'], ParentType, ContextType>;
};

export type WebhookDeliveryConnectionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['WebhookDeliveryConnection'] = ResolversParentTypes['WebhookDeliveryConnection']> = {
  edges?: Resolver<Array<ResolversTypes['WebhookDeliveryEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['WebhookDelivery']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
};

export type WebhookDeliveryEdgeResolvers<ContextType = Context, ParentType extends ResolversParentTypes['WebhookDeliveryEdge'] = ResolversParentTypes['WebhookDeliveryEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['WebhookDelivery'], ParentType, ContextType>;
};

export type WebhookEndpointResolvers<ContextType = Context, ParentType extends ResolversParentTypes['WebhookEndpoint'] = ResolversParentTypes['WebhookEndpoint']> = {
  createdAt?: Resolver<ResolversTypes['Timestamp'], ParentType, ContextType>;
  deliveries?: Resolver<ResolversTypes['WebhookDeliveryConnection'], ParentType, ContextType, RequireFields<WebhookEndpointDeliveriesArgs, 'first'>>;
  description?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  disabledReason?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  enabled?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  eventTypes?: Resolver<Array<ResolversTypes['EventType']>, ParentType, ContextType>;
  failingSince?: Resolver<Maybe<ResolversTypes['Timestamp']>, ParentType, ContextType>;
  format?: Resolver<ResolversTypes['WebhookFormat'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  partner?: Resolver<Maybe<ResolversTypes['Partner']>, ParentType, ContextType>;
  url?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type WebhookEndpointConnectionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['WebhookEndpointConnection'] = ResolversParentTypes['WebhookEndpointConnection']> = {
  edges?: Resolver<Array<ResolversTypes['WebhookEndpointEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['WebhookEndpoint']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
};

export type WebhookEndpointEdgeResolvers<ContextType = Context, ParentType extends ResolversParentTypes['WebhookEndpointEdge'] = ResolversParentTypes['WebhookEndpointEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['WebhookEndpoint'], ParentType, ContextType>;
};

export type WebhookEndpointSecretResolvers<ContextType = Context, ParentType extends ResolversParentTypes['WebhookEndpointSecret'] = ResolversParentTypes['WebhookEndpointSecret']> = {
  endpoint?: Resolver<ResolversTypes['WebhookEndpoint'], ParentType, ContextType>;
  secret?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type Resolvers<ContextType = Context> = {
  AccessToken?: AccessTokenResolvers<ContextType>;
  Address?: AddressResolvers<ContextType>;
  Adjustment?: AdjustmentResolvers<ContextType>;
  AdjustmentTransaction?: AdjustmentTransactionResolvers<ContextType>;
  ApiKey?: ApiKeyResolvers<ContextType>;
  AuditEvent?: AuditEventResolvers<ContextType>;
  AuditEventConnection?: AuditEventConnectionResolvers<ContextType>;
  AuditEventEdge?: AuditEventEdgeResolvers<ContextType>;
  Cart?: CartResolvers<ContextType>;
  CashTransaction?: CashTransactionResolvers<ContextType>;
  Clerk?: ClerkResolvers<ContextType>;
  CommissionTransaction?: CommissionTransactionResolvers<ContextType>;
  CreatedApiKey?: CreatedApiKeyResolvers<ContextType>;
  CurrencyCode?: GraphQLScalarType;
  Customer?: CustomerResolvers<ContextType>;
  CustomerConnection?: CustomerConnectionResolvers<ContextType>;
  CustomerEdge?: CustomerEdgeResolvers<ContextType>;
  Decimal?: GraphQLScalarType;
  DeliveryAttempt?: DeliveryAttemptResolvers<ContextType>;
  Device?: DeviceResolvers<ContextType>;
  DeviceCheckin?: DeviceCheckinResolvers<ContextType>;
  DeviceCommand?: DeviceCommandResolvers<ContextType>;
  DeviceCommandConnection?: DeviceCommandConnectionResolvers<ContextType>;
  DeviceCommandEdge?: DeviceCommandEdgeResolvers<ContextType>;
  DeviceConnection?: DeviceConnectionResolvers<ContextType>;
  DeviceEdge?: DeviceEdgeResolvers<ContextType>;
  DeviceFamily?: DeviceFamilyResolvers<ContextType>;
  DeviceModel?: DeviceModelResolvers<ContextType>;
  DeviceModelConnection?: DeviceModelConnectionResolvers<ContextType>;
  DeviceModelEdge?: DeviceModelEdgeResolvers<ContextType>;
  DeviceRepayment?: DeviceRepaymentResolvers<ContextType>;
  Event?: EventResolvers<ContextType>;
  EventConnection?: EventConnectionResolvers<ContextType>;
  EventEdge?: EventEdgeResolvers<ContextType>;
  FinanceOrder?: FinanceOrderResolvers<ContextType>;
  FinanceOrderConnection?: FinanceOrderConnectionResolvers<ContextType>;
  FinanceOrderEdge?: FinanceOrderEdgeResolvers<ContextType>;
  FinanceTransaction?: FinanceTransactionResolvers<ContextType>;
  Installment?: InstallmentResolvers<ContextType>;
  IssuedDeviceCredential?: IssuedDeviceCredentialResolvers<ContextType>;
  JSON?: GraphQLScalarType;
  Merchant?: MerchantResolvers<ContextType>;
  Mutation?: MutationResolvers<ContextType>;
  PageInfo?: PageInfoResolvers<ContextType>;
  Partner?: PartnerResolvers<ContextType>;
  PartnerSettings?: PartnerSettingsResolvers<ContextType>;
  Payment?: PaymentResolvers<ContextType>;
  PaymentNotificationResult?: PaymentNotificationResultResolvers<ContextType>;
  PaymentOption?: PaymentOptionResolvers<ContextType>;
  PaymentReceipt?: PaymentReceiptResolvers<ContextType>;
  PaymentReference?: PaymentReferenceResolvers<ContextType>;
  PaymentReferenceConnection?: PaymentReferenceConnectionResolvers<ContextType>;
  PaymentReferenceEdge?: PaymentReferenceEdgeResolvers<ContextType>;
  PaymentReversal?: PaymentReversalResolvers<ContextType>;
  PaymentVendor?: PaymentVendorResolvers<ContextType>;
  PortfolioAgeing?: PortfolioAgeingResolvers<ContextType>;
  PortfolioAgeingBucket?: PortfolioAgeingBucketResolvers<ContextType>;
  PortfolioHistoryPoint?: PortfolioHistoryPointResolvers<ContextType>;
  PortfolioMetrics?: PortfolioMetricsResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  Repayment?: RepaymentResolvers<ContextType>;
  RepaymentOption?: RepaymentOptionResolvers<ContextType>;
  ReportRun?: ReportRunResolvers<ContextType>;
  ReportRunConnection?: ReportRunConnectionResolvers<ContextType>;
  ReportRunEdge?: ReportRunEdgeResolvers<ContextType>;
  RevokedDeviceCredential?: RevokedDeviceCredentialResolvers<ContextType>;
  SandboxClock?: SandboxClockResolvers<ContextType>;
  Subscription?: SubscriptionResolvers<ContextType>;
  Timestamp?: GraphQLScalarType;
  Transaction?: TransactionResolvers<ContextType>;
  TransactionConnection?: TransactionConnectionResolvers<ContextType>;
  TransactionEdge?: TransactionEdgeResolvers<ContextType>;
  Viewer?: ViewerResolvers<ContextType>;
  WebhookDelivery?: WebhookDeliveryResolvers<ContextType>;
  WebhookDeliveryConnection?: WebhookDeliveryConnectionResolvers<ContextType>;
  WebhookDeliveryEdge?: WebhookDeliveryEdgeResolvers<ContextType>;
  WebhookEndpoint?: WebhookEndpointResolvers<ContextType>;
  WebhookEndpointConnection?: WebhookEndpointConnectionResolvers<ContextType>;
  WebhookEndpointEdge?: WebhookEndpointEdgeResolvers<ContextType>;
  WebhookEndpointSecret?: WebhookEndpointSecretResolvers<ContextType>;
};

export type DirectiveResolvers<ContextType = Context> = {
  listSize?: ListSizeDirectiveResolver<any, any, ContextType>;
};
