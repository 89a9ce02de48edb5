// Creating a cart: a sale a store proposes to finance, naming the partner's own customer, store and
// clerk and a catalogue model (else RESOURCE_NOT_FOUND), written with its audit record in one
// transaction; a tag already a cart of the partner is refused by name.
import type { Db } from '../../db/knex.js';
import { invalidArgument, notFound } from '../../kernel/errors.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { clerksByKeys } from '../clerks/queries.js';
import { customersByKeys } from '../customers/queries.js';
import { deviceModelsByIds } from '../devices/queries.js';
import { isUniqueViolation } from '../inputs.js';
import { merchantsByKeys } from '../merchants/queries.js';
import { insertCart } from './queries.js';
import type { CartRow } from './rows.js';

type NewCart = Omit<CartRow, 'id' | 'created_at'>;

export async function createCart(db: Db, actor: AuditActor, cart: NewCart): Promise<CartRow> {
  const partnerId = cart.partner_id;
  try {
    return await audited(
      db,
      actor,
      async (trx) => {
        if (!(await customersByKeys(trx, [{ partnerId, id: cart.customer_id }]))[0])
          throw notFound('customer', cart.customer_id);
        if (!(await merchantsByKeys(trx, [{ partnerId, id: cart.merchant_id }]))[0])
          throw notFound('merchant', cart.merchant_id);
        if (!(await clerksByKeys(trx, [{ partnerId, id: cart.clerk_id }]))[0]) throw notFound('clerk', cart.clerk_id);
        if (!(await deviceModelsByIds(trx, [cart.device_model_id]))[0])
          throw notFound('device model', cart.device_model_id);
        return insertCart(trx, cart);
      },
      (row) => ({
        action: 'cart.create',
        subjectKind: 'cart',
        subjectId: row.id,
        partnerId,
        details: { cartTag: row.cart_tag },
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidArgument('input.cartTag', 'is already a cart of this partner');
    throw error;
  }
}
