// What makes a repeated request harmless: a partner's Idempotency-Key on in-store payments (tenant
// table) and a vendor's own reference on notifications (global: a notification names no partner).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    t.text('idempotency_key').notNullable();
    // Hash of the request's meaningful parameters: the same key with other parameters is a conflict.
    t.text('request_hash').notNullable();
    t.integer('response_status').notNullable();
    t.jsonb('response_body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Kept at least 24 hours (decisions.md 6); rows past this may be purged.
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['partner_id', 'idempotency_key']);
    t.index(['expires_at']);
  });

  await knex.schema.createTable('vendor_notifications', (t) => {
    t.bigInteger('vendor_id').notNullable().references('id').inTable('payment_vendors');
    t.text('reference').notNullable();
    t.text('request_hash').notNullable();
    t.bigInteger('partner_id').notNullable();
    t.bigInteger('payment_id').notNullable();
    t.jsonb('response_body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // The vendor's reference is its idempotency key: unique per vendor.
    t.primary(['vendor_id', 'reference']);
    t.foreign(['partner_id', 'payment_id']).references(['partner_id', 'id']).inTable('payments');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('vendor_notifications');
  await knex.schema.dropTable('idempotency_keys');
}
