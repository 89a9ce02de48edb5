// The request limits' counters are written by every credentialed request: as an unlogged table their
// writes make no WAL, so a request's commit does not wait for a WAL flush (and no replica copies
// them: the limiter reads and writes the primary only). The price is that a crash of Postgres empties
// the table, which starts every key's window afresh: a counter is worth less than a flush per request.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table rate_limits set unlogged');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table rate_limits set logged');
}
