// customerLocator (decisions.md 8): an IMEI (15 or 16 digits), a device tag, the customer's phone
// number, or the customer id, tried in that order; the first rule that finds a customer wins.
import type { DbOrTrx } from '../../db/knex.js';
import { invalidArgument } from '../../kernel/errors.js';
import { isDatabaseId } from '../../kernel/ids.js';
import { IMEI } from '../devices/rows.js';
import { customersByLocator, type LocatorRule } from './queries.js';
import type { CustomerParent } from './rows.js';

/** The longest locator that can name anything (no phone number, tag, IMEI or id is longer); the door refuses longer ones. */
export const LOCATOR_MAX_LENGTH = 64;

/** The customer a locator names within one partner (or any partner when partnerId is null). */
export async function locateCustomer(
  db: DbOrTrx,
  locator: string,
  partnerId: string | null,
): Promise<CustomerParent | null> {
  const text = locator.trim();
  if (text === '' || text.length > LOCATOR_MAX_LENGTH) return null;
  const rules: LocatorRule[] = [
    ...(IMEI.test(text) ? (['imei'] as const) : []),
    'tag',
    'phone number',
    ...(isDatabaseId(text) ? (['id'] as const) : []),
  ];
  // Every rule in one statement; the winning rule's rows come first.
  const [found, next] = await customersByLocator(db, text, rules, partnerId);
  if (!found) return null;
  if (next && next.precedence === found.precedence) {
    throw invalidArgument(
      'locator',
      `matches customers of several partners by ${rules[found.precedence]}; use a device tag or an IMEI`,
    );
  }
  // matched_device_id travels with the customer: found through a device, that device's order is the
  // one the lookup is about (Customer.financeOrder).
  const { precedence: _rule, ...customer } = found;
  return customer;
}
