// A reversal's opposite transactions (decisions.md 44) carry the reversed payment's id and type, so the
// rule "one cash and one commission transaction per payment" (transactions_one_per_payment_and_type,
// decisions.md 25: with the partition key, occurred_at) now holds for a payment's own transactions,
// and a second rule holds one of each per reversal. Before it, a reversal at its payment's very
// instant (a fixed clock, a sandbox's) failed on the first rule.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('drop index transactions_one_per_payment_and_type');
  await knex.raw(
    `create unique index transactions_one_per_payment_and_type on transactions (partner_id, payment_id, type, occurred_at)
     where payment_id is not null and reversal_id is null`,
  );
  await knex.raw(
    `create unique index transactions_one_per_reversal_and_type on transactions (partner_id, reversal_id, type, occurred_at)
     where reversal_id is not null`,
  );
}

export async function down(knex: Knex): Promise<void> {
  // The earlier rule cannot hold a payment's transactions beside their opposites at one instant.
  await knex.raw('delete from transactions where reversal_id is not null');
  await knex.raw('drop index transactions_one_per_reversal_and_type');
  await knex.raw('drop index transactions_one_per_payment_and_type');
  await knex.raw(
    `create unique index transactions_one_per_payment_and_type on transactions (partner_id, payment_id, type, occurred_at)
     where payment_id is not null`,
  );
}
