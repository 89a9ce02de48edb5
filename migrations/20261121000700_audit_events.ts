// The audit trail: who did what, when, from where, for every operator action and key event.
// Append-only in the database itself: triggers refuse UPDATE, DELETE and TRUNCATE, so no code path
// (and no bug) can rewrite it.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_events', (t) => {
    t.bigIncrements('id');
    t.timestamp('occurred_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // operator: through GraphQL with an operator key or token; cli: npm run keys on the server.
    t.text('actor_kind').notNullable();
    t.text('actor_id').nullable();
    t.bigInteger('actor_key_id').nullable();
    t.text('action').notNullable();
    t.text('subject_kind').notNullable();
    t.text('subject_id').nullable();
    // The partner concerned, when there is one (a global table: kept for filtering, not sharding).
    t.bigInteger('partner_id').nullable();
    t.jsonb('details').notNullable().defaultTo('{}');
    t.text('client_address').nullable();
    t.text('request_id').nullable();
    t.check("actor_kind in ('operator', 'cli')", [], 'audit_events_actor_kind_known');
    t.index(['occurred_at', 'id']);
    t.index(['partner_id', 'occurred_at']);
  });
  await knex.raw(`create function audit_events_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_events is append-only';
    end
  $$`);
  await knex.raw(
    'create trigger audit_events_no_update_or_delete before update or delete on audit_events for each row execute function audit_events_append_only()',
  );
  await knex.raw(
    'create trigger audit_events_no_truncate before truncate on audit_events for each statement execute function audit_events_append_only()',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_events');
  await knex.raw('drop function audit_events_append_only()');
}
