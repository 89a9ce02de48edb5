// lookup-cart's pieces (docs/legacy-contract.md#lookup-cart): customer fields only as requested (all
// strings); amounts as decimal strings except pricePreTax, a number; months as integer text.
import type { LookupCartQuery } from '../__generated__/operations.js';
import { number } from './json.js';

type LookedUpCart = NonNullable<LookupCartQuery['cart']>;

export function legacyCartCustomer(customer: LookedUpCart['customer']) {
  return {
    ...(customer.id !== undefined ? { id: customer.id } : {}),
    ...(customer.name !== undefined ? { name: customer.name } : {}),
    ...(customer.phoneNumber !== undefined ? { phoneNumber: customer.phoneNumber } : {}),
    ...(customer.email !== undefined ? { email: customer.email } : {}),
    ...(customer.address !== undefined ? { address: customer.address } : {}),
    ...(customer.nationalId !== undefined ? { nationalId: customer.nationalId } : {}),
  };
}

export function legacyCart(cart: LookedUpCart) {
  return {
    cartTag: cart.cartTag,
    purchaseAmount: cart.purchaseAmount,
    financeAmount: cart.financeAmount,
    downPayment: cart.downPayment,
    pricePreTax: number(cart.pricePreTax),
    monthlyCost: cart.monthlyCost,
    weeklyCost: cart.weeklyCost,
    months: String(cart.months),
    currency: cart.currency,
  };
}

export function legacyCartDevice(cart: LookedUpCart) {
  return {
    family: cart.deviceModel.family.name,
    makeModel: cart.deviceModel.makeModel,
    ...(cart.deviceDescription !== undefined ? { description: cart.deviceDescription } : {}),
  };
}
