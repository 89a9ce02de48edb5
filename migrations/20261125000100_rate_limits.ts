// The request limits' counters shared by every instance on this database (src/pipeline/rateLimits/postgresStore.ts),
// in the shape rate-limiter-flexible's Postgres store reads and writes: one row per limited key (its
// prefix names the limit), the points counted in the key's window and when that window ends (epoch ms).
// The library is told the table exists: it never runs DDL at runtime.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limits', (t) => {
    t.string('key', 255).primary();
    t.integer('points').notNullable().defaultTo(0);
    t.bigInteger('expire');
    // The library's sweep deletes rows whose window ended an hour ago.
    t.index(['expire']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_limits');
}
