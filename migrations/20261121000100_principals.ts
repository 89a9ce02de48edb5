// Who can call the service: partners (retail chains, the tenants), payment vendors, operators, and
// the API keys that belong to exactly one of them. These tables are global (not sharded by partner).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('partners', (t) => {
    t.bigIncrements('id');
    t.text('name').notNullable();
    // Commission on in-store payments, in basis points (500 = 5%): an exact integer, never a float.
    t.integer('commission_rate_bps').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check('commission_rate_bps between 0 and 10000', [], 'partners_commission_rate_bps_range');
  });

  await knex.schema.createTable('operators', (t) => {
    t.bigIncrements('id');
    t.text('name').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('payment_vendors', (t) => {
    t.bigIncrements('id');
    // The name agreed with the vendor; notifications carry it as paymentVendor.
    t.text('name').notNullable().unique();
    t.text('display_name').notNullable();
    // JSON Schema of the vendor's notification body, checked before anything is written.
    t.jsonb('request_schema').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('api_keys', (t) => {
    t.bigIncrements('id');
    // SHA-256 of the key, hex. The key itself is never stored.
    t.text('key_hash').notNullable().unique();
    // The first characters of the key, so people can tell keys apart without the secret.
    t.text('display_prefix').notNullable();
    t.text('kind').notNullable();
    t.bigInteger('partner_id').nullable().references('id').inTable('partners');
    t.bigInteger('vendor_id').nullable().references('id').inTable('payment_vendors');
    t.bigInteger('operator_id').nullable().references('id').inTable('operators');
    t.text('label').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).nullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.check("kind in ('partner', 'retail', 'vendor', 'operator')", [], 'api_keys_kind_known');
    // A key belongs to exactly one principal, of the kind its kind says.
    t.check(
      `(kind in ('partner', 'retail') and partner_id is not null and vendor_id is null and operator_id is null)
       or (kind = 'vendor' and vendor_id is not null and partner_id is null and operator_id is null)
       or (kind = 'operator' and operator_id is not null and partner_id is null and vendor_id is null)`,
      [],
      'api_keys_one_principal',
    );
    t.index(['partner_id']);
    t.index(['vendor_id']);
    t.index(['operator_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_keys');
  await knex.schema.dropTable('payment_vendors');
  await knex.schema.dropTable('operators');
  await knex.schema.dropTable('partners');
}
