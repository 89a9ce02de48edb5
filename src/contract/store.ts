// A store's people and places as list-clerks and list-merchants write them
// (docs/legacy-contract.md#list-clerks, #list-merchants):
// every field a string, ids included; street2 string or null; postalCode may be empty.
import type { ListClerksQuery, ListMerchantsQuery } from '../__generated__/operations.js';

export function legacyClerk(clerk: ListClerksQuery['clerks'][number]) {
  return {
    id: clerk.id,
    personUuid: clerk.personUuid,
    name: clerk.name,
    phoneNumber: clerk.phoneNumber,
    email: clerk.email,
  };
}

export function legacyMerchant(merchant: ListMerchantsQuery['merchants'][number]) {
  return {
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
  };
}
