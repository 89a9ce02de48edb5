/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** What an adjustment corrects. */
export type AdjustmentKind =
  /** The partner's commission. */
  | 'COMMISSION'
  /** The partner's cash from payments. */
  | 'PAYMENT';

/** Which amount a payment option is. */
export type PaymentOptionType =
  /** The whole remaining balance. */
  | 'FULL'
  /** One monthly instalment (or the balance, if less). */
  | 'MONTH'
  /** One weekly instalment (or the balance, if less). */
  | 'WEEK';

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

export type CreateAccessTokenMutationVariables = Exact<{
  apiKey: string;
}>;


export type CreateAccessTokenMutation = { createAccessToken: { accessToken: string, tokenType: string, expiresIn: number } };

export type CreatePaymentNotificationMutationVariables = Exact<{
  notification: unknown;
}>;


export type CreatePaymentNotificationMutation = { createPaymentNotification: { message: string, receipt: { remainingBalance: string, currency: string, fullyPaid: boolean, replayed: boolean, unlockCode: string | null, payment: { id: string } } } | null };

export type ListClerksQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | number | null | undefined;
}>;


export type ListClerksQuery = { clerks: Array<{ id: string, personUuid: string, name: string, phoneNumber: string, email: string }> };

export type ListMerchantsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | number | null | undefined;
}>;


export type ListMerchantsQuery = { merchants: Array<{ id: string, name: string, phoneNumber: string, address: { street: string, street2: string | null, city: string, state: string, postalCode: string, country: string } }> };

export type ListTransactionsQueryVariables = Exact<{
  start: number;
  end: number;
  filter?: Array<string> | string | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ListTransactionsQuery = { transactions: { pageInfo: { hasNextPage: boolean, endCursor: string | null }, nodes: Array<
      | { __typename: 'AdjustmentTransaction', type: TransactionType, time: number, amount: string, currency: string, adjustment: { id: string, kind: AdjustmentKind, notes: string }, merchant: { id: string, name: string } }
      | { __typename: 'CashTransaction', type: TransactionType, time: number, amount: string, currency: string, payment: { id: string, time: number, amount: string }, financeOrder: { id: string }, salesClerk: { id: string, name: string }, merchant: { id: string, name: string } }
      | { __typename: 'CommissionTransaction', type: TransactionType, time: number, amount: string, currency: string, payment: { id: string, time: number, amount: string }, financeOrder: { id: string }, merchant: { id: string, name: string } }
      | { __typename: 'FinanceTransaction', type: TransactionType, time: number, amount: string, currency: string, financeOrder: { id: string, purchaseAmount: string, financeAmount: string, downPayment: string, pricePreTax: string, monthlyCost: string, weeklyCost: string, months: number }, salesClerk: { id: string, name: string }, device: { phoneNumber: string | null, simNumber: string | null, imei: string, family: { id: string, name: string }, model: { id: string, makeModel: string, name: string } }, merchant: { id: string, name: string } }
    > } };

export type LookupCartQueryVariables = Exact<{
  cartTag: string;
  customerId: boolean;
  customerName: boolean;
  customerPhoneNumber: boolean;
  customerEmail: boolean;
  customerAddress: boolean;
  customerNationalId: boolean;
  withDescription: boolean;
}>;


export type LookupCartQuery = { cart: { cartTag: string, purchaseAmount: string, financeAmount: string, downPayment: string, pricePreTax: string, monthlyCost: string, weeklyCost: string, months: number, currency: string, deviceDescription?: string | null, deviceModel: { makeModel: string, family: { name: string } }, customer: { id?: string, name?: string, phoneNumber?: string, email?: string | null, address?: string | null, nationalId?: string | null } } | null };

export type LookupCustomerQueryVariables = Exact<{
  locator: string;
  withDescription: boolean;
}>;


export type LookupCustomerQuery = { customer: { id: string, financeOrder: { id: string, currency: string, downPayment: string, financeAmount: string, monthlyCost: string, months: number, pricePreTax: string, purchaseAmount: string, remainingBalance: string, time: number, weeklyCost: string, payments: Array<{ amount: string, currency: string, time: number }>, paymentOptions: Array<{ type: PaymentOptionType, amount: string, currency: string }>, device: { validThrough: number | null, imei: string, simNumber: string | null, lastSeen: number | null, secureStatus: SecureStatus | null, description?: string | null, family: { id: string, name: string }, model: { id: string, makeModel: string, name: string } } } | null } | null };

export type RecordCustomerPaymentMutationVariables = Exact<{
  merchantId: string | number;
  salesClerkId: string | number;
  financeOrderId: string | number;
  amount: string;
  currency: string;
  idempotencyKey?: string | null | undefined;
}>;


export type RecordCustomerPaymentMutation = { recordInStorePayment: { time: number, deviceTag: string, remainingBalance: string, currency: string, nextPayment: number | null, fullyPaid: boolean, replayed: boolean, payment: { id: string } } };

export type RepaymentOptionsQueryVariables = Exact<{
  deviceTag: string;
  currency?: string | null | undefined;
}>;


export type RepaymentOptionsQuery = { deviceRepayment: { deviceTag: string, financeOrderId: string, currency: string, lockAt: number, repayment: { minimumPaymentAmount: string, fullPayoffAmount: string, flexibleAmountEnabled: boolean, options: Array<{ daysPaid: number, amount: string }> } } };

export type ReverseVendorPaymentMutationVariables = Exact<{
  paymentVendor: string;
  reference: string;
  reason: string;
  idempotencyKey?: string | null | undefined;
}>;


export type ReverseVendorPaymentMutation = { reverseVendorPayment: { id: string, amount: string, currency: string, remainingBalance: string, fullyPaid: boolean, replayed: boolean, payment: { id: string, financeOrder: { device: { tag: string } } } } };
