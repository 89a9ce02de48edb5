// The global directories' writes (decisions.md 48): what a request that names no partner looks up to find
// it, each entry written by the code that writes its row, in that row's transaction. Directories are
// global tables (copied to every node when the tenant tables are distributed by partner), so no trigger
// on a tenant table keeps them and no foreign key points from them into a tenant table.
// device_directory is written by devices/queries.ts insertDevice beside its row, as it always was.
import type { DbOrTrx } from '../db/knex.js';

/** A new finance order's entry: a notification naming the order's id finds its partner here. */
export async function recordFinanceOrderOwner(trx: DbOrTrx, order: { partner_id: string; id: string }): Promise<void> {
  await trx('finance_order_directory').insert({ id: order.id, partner_id: order.partner_id });
}

/** A new customer's phone number, when it has one: a notification naming the number finds the customer here. */
export async function recordCustomerPhone(
  trx: DbOrTrx,
  customer: { partner_id: string; id: string; phone_number: string | null },
): Promise<void> {
  if (customer.phone_number === null) return;
  await trx('customer_phone_directory').insert({
    phone_number: customer.phone_number,
    partner_id: customer.partner_id,
    customer_id: customer.id,
  });
}

/**
 * Claims a payment reference's code for `partnerId` (unique across partners: a notification quotes it
 * with no partner); false when any partner holds it already. A taken code is skipped, not raised, so a
 * collision inside a transaction does not abort it.
 */
export async function claimPaymentReferenceCode(trx: DbOrTrx, code: string, partnerId: string): Promise<boolean> {
  const claimed = await trx('payment_reference_directory')
    .insert({ code, partner_id: partnerId })
    .onConflict('code')
    .ignore()
    .returning('code');
  return claimed.length === 1;
}

/** Whose payment reference `code` is, whatever the partner; undefined when no partner holds it. */
export async function ownerOfPaymentReferenceCode(db: DbOrTrx, code: string): Promise<string | undefined> {
  const entry = await db('payment_reference_directory').select('partner_id').where({ code }).first();
  return entry ? String(entry.partner_id) : undefined;
}

/** A live device credential's entry: the device door finds the device (and its partner) by the hash alone. */
export async function recordDeviceCredential(
  trx: DbOrTrx,
  credential: { key_hash: string; partner_id: string; device_id: string },
): Promise<void> {
  await trx('device_credential_directory').insert(credential);
}

/** Removes the entries of a device's credentials, in the transaction that ends them: the directory holds live ones only. */
export async function forgetDeviceCredentials(
  trx: DbOrTrx,
  device: { partnerId: string; deviceId: string },
): Promise<void> {
  await trx('device_credential_directory').where({ partner_id: device.partnerId, device_id: device.deviceId }).del();
}

/** The device whose live credential hashes to `keyHash`, whatever the partner; undefined when none. */
export async function deviceOfCredentialHash(
  db: DbOrTrx,
  keyHash: string,
): Promise<{ partnerId: string; deviceId: string } | undefined> {
  const entry = await db('device_credential_directory')
    .select('partner_id', 'device_id')
    .where({ key_hash: keyHash })
    .first();
  return entry ? { partnerId: String(entry.partner_id), deviceId: String(entry.device_id) } : undefined;
}

/**
 * Writes the directory entries rows written in bulk are missing (the demo seed, the bench's data set,
 * tests' bulk rows, which insert with SQL of their own): one statement per directory, each entry only
 * once. The service's own writers record each entry beside its row instead.
 */
export async function fillDirectories(db: DbOrTrx): Promise<void> {
  await db.raw(`insert into finance_order_directory (id, partner_id)
    select o.id, o.partner_id from finance_orders o
     where not exists (select from finance_order_directory e where e.id = o.id)`);
  await db.raw(`insert into customer_phone_directory (phone_number, partner_id, customer_id)
    select c.phone_number, c.partner_id, c.id from customers c
     where c.phone_number is not null
       and not exists (select from customer_phone_directory e where e.partner_id = c.partner_id and e.customer_id = c.id)`);
  await db.raw(`insert into payment_reference_directory (code, partner_id)
    select r.code, r.partner_id from payment_references r
     where not exists (select from payment_reference_directory e where e.code = r.code)`);
  await db.raw(`insert into device_credential_directory (key_hash, partner_id, device_id)
    select c.key_hash, c.partner_id, c.device_id from device_credentials c
     where c.ended_at is null and not exists (select from device_credential_directory e where e.key_hash = c.key_hash)`);
}
