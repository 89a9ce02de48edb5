// customerLocator (decisions.md 8): an IMEI (15 or 16 digits), a device tag, the customer's phone
// number, or the customer id, tried in that order; the first rule that finds a customer wins.
import type { DbOrTrx } from '../../db/knex.js';
import { invalidArgument } from '../../errors.js';
import { isDatabaseId } from '../../ids.js';
import { findDevice } from '../devices/queries.js';
import { customersByKeys, customersById, customersByPhone } from './queries.js';
import type { CustomerParent, CustomerRow } from './rows.js';

export const IMEI = /^[0-9]{15,16}$/;

function single(rows: CustomerRow[], rule: string): CustomerRow | null {
  if (rows.length > 1) throw invalidArgument('locator', `matches customers of several partners by ${rule}; use a device tag or an IMEI`);
  return rows[0] ?? null;
}

/** The customer a locator names within one partner (or any partner when partnerId is null). */
export async function locateCustomer(db: DbOrTrx, locator: string, partnerId: string | null): Promise<CustomerParent | null> {
  const text = locator.trim();
  if (text === '' || text.length > 64) return null;
  for (const by of IMEI.test(text) ? (['imei', 'tag'] as const) : (['tag'] as const)) {
    const device = await findDevice(db, by, text, partnerId);
    if (device?.customer_id) {
      const [customer] = await customersByKeys(db, [{ partnerId: device.partner_id, id: device.customer_id }]);
      // Found through a device: that device's order is the one the lookup is about.
      if (customer) return { ...customer, matched_device_id: device.id };
    }
  }
  const byPhone = single(await customersByPhone(db, text, partnerId), 'phone number');
  if (byPhone) return byPhone;
  return isDatabaseId(text) ? single(await customersById(db, text, partnerId), 'id') : null;
}
