// The W3C traceparent of the request that wrote an event (null: tracing was off), written in the same
// insert: the webhook worker posts the event's deliveries later, continuing that request's trace.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('events', (t) => {
    t.text('traceparent').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('events', (t) => {
    t.dropColumn('traceparent');
  });
}
