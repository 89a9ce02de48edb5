// Corrections (docs/decisions.md 44): a payment reversed inside its window, a payoff's release that
// waits for that window, an order closed by a write-off or the device's return.
// - partners.reversal_window_hours (72 unless set) and payments.reversible_until, fixed when the
//   payment is received (the payments already made get the default window from their received_at);
// - payment_reversals: one per payment at most (the unique key every door's race ends on), with the
//   caller's Idempotency-Key and first answer; the transactions that answer an in-store payment's
//   point at it (transactions.reversal_id);
// - finance_orders: release_at (a payoff completing), and closed_at / closed_reason / closed_note /
//   cleared_minor (the balance a close cleared);
// - the lock timeline's `release` instant; the event types of the three corrections.
import type { Knex } from 'knex';

const EARLIER_TYPES =
  "'payment.recorded', 'transaction.created', 'finance_order.created', 'finance_order.paid_off', 'webhook.test', " +
  "'device.lock_upcoming', 'device.locked', 'device.unlocked', 'device.released', 'device.checked_in', " +
  "'device.command_acknowledged'";
const CORRECTION_TYPES = "'payment.reversed', 'finance_order.written_off', 'finance_order.returned'";

const eventTypesCheck = (types: string) =>
  `alter table events add constraint events_type_known check (type in (${types}))`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table partners add column reversal_window_hours integer not null default 72');
  await knex.raw(
    'alter table partners add constraint partners_reversal_window_hours_range check (reversal_window_hours between 0 and 720)',
  );

  // Added empty, filled, then required: no default would be right for a payment yet to come.
  await knex.raw('alter table payments add column reversible_until timestamptz');
  await knex.raw("update payments set reversible_until = received_at + interval '72 hours'");
  await knex.raw('alter table payments alter column reversible_until set not null');

  await knex.schema.createTable('payment_reversals', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('payment_id').notNullable();
    t.bigInteger('finance_order_id').notNullable();
    t.bigInteger('amount_minor').notNullable();
    t.text('currency').notNullable();
    t.text('reason').notNullable();
    // Who reversed it: a vendor (vendor_id), a partner key or an operator (api_key_id).
    t.text('reversed_by').notNullable();
    t.bigInteger('vendor_id').nullable().references('id').inTable('payment_vendors');
    t.bigInteger('api_key_id').nullable();
    // The partner's time of the reversal (a sandbox clock may run ahead).
    t.timestamp('reversed_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // The caller's Idempotency-Key (scoped to the caller within the payment's partner: vendor:<id>,
    // partner:<id>, operator:<id>; the partner leads the key, as every tenant table's unique rules),
    // what the request was, and the first answer, replayed to a repeat.
    t.text('idempotency_scope').nullable();
    t.text('idempotency_key').nullable();
    t.text('request_hash').nullable();
    t.jsonb('response_body').nullable();
    t.primary(['partner_id', 'id']);
    t.unique(['partner_id', 'payment_id'], { indexName: 'payment_reversals_one_per_payment' });
    t.foreign(['partner_id', 'payment_id']).references(['partner_id', 'id']).inTable('payments');
    t.foreign(['partner_id', 'finance_order_id']).references(['partner_id', 'id']).inTable('finance_orders');
    t.check('amount_minor > 0', [], 'payment_reversals_amount_positive');
    t.check("reversed_by in ('vendor', 'partner', 'operator')", [], 'payment_reversals_reversed_by_known');
    t.check("(reversed_by = 'vendor') = (vendor_id is not null)", [], 'payment_reversals_vendor_of_vendors');
    t.check(
      '(idempotency_key is null) = (idempotency_scope is null) and (idempotency_key is null) = (request_hash is null)',
      [],
      'payment_reversals_idempotency_whole',
    );
  });
  await knex.raw(
    `create unique index payment_reversals_idempotency on payment_reversals (partner_id, idempotency_scope, idempotency_key)
     where idempotency_key is not null`,
  );

  await knex.raw('alter table transactions add column reversal_id bigint');
  await knex.raw(
    `alter table transactions add constraint transactions_reversal_fk foreign key (partner_id, reversal_id)
     references payment_reversals (partner_id, id)`,
  );
  // Only a payment's own transactions are answered by a reversal.
  await knex.raw(
    `alter table transactions add constraint transactions_reversal_of_payments
     check (reversal_id is null or (type in ('cash', 'commission') and payment_id is not null))`,
  );

  await knex.raw('alter table finance_orders add column release_at timestamptz');
  await knex.raw('alter table finance_orders add column closed_at timestamptz');
  await knex.raw('alter table finance_orders add column closed_reason text');
  await knex.raw('alter table finance_orders add column closed_note text');
  await knex.raw('alter table finance_orders add column cleared_minor bigint not null default 0');
  await knex.raw(
    `alter table finance_orders add constraint finance_orders_closed_whole
     check ((closed_at is null) = (closed_reason is null) and (closed_at is null) = (closed_note is null)
            and (closed_at is not null or cleared_minor = 0))`,
  );
  await knex.raw(
    `alter table finance_orders add constraint finance_orders_closed_reason_known
     check (closed_reason in ('WRITE_OFF', 'DEVICE_RETURNED'))`,
  );

  await knex.raw('alter table lock_timeline drop constraint lock_timeline_kind_known');
  await knex.raw(
    "alter table lock_timeline add constraint lock_timeline_kind_known check (kind in ('reminder', 'lock', 'release'))",
  );

  await knex.raw('alter table events drop constraint events_type_known');
  await knex.raw(eventTypesCheck(`${EARLIER_TYPES}, ${CORRECTION_TYPES}`));
}

export async function down(knex: Knex): Promise<void> {
  // The corrections' events (and, by cascade, their deliveries) have no place in the earlier log.
  await knex.raw(`delete from events where type in (${CORRECTION_TYPES})`);
  await knex.raw('alter table events drop constraint events_type_known');
  await knex.raw(eventTypesCheck(EARLIER_TYPES));
  await knex.raw("delete from lock_timeline where kind = 'release'");
  await knex.raw('alter table lock_timeline drop constraint lock_timeline_kind_known');
  await knex.raw(
    "alter table lock_timeline add constraint lock_timeline_kind_known check (kind in ('reminder', 'lock'))",
  );
  await knex.raw('alter table finance_orders drop constraint finance_orders_closed_reason_known');
  await knex.raw('alter table finance_orders drop constraint finance_orders_closed_whole');
  for (const column of ['cleared_minor', 'closed_note', 'closed_reason', 'closed_at', 'release_at'])
    await knex.raw(`alter table finance_orders drop column ${column}`);
  await knex.raw('alter table transactions drop constraint transactions_reversal_of_payments');
  await knex.raw('alter table transactions drop constraint transactions_reversal_fk');
  await knex.raw('alter table transactions drop column reversal_id');
  await knex.schema.dropTable('payment_reversals');
  await knex.raw('alter table payments drop column reversible_until');
  await knex.raw('alter table partners drop constraint partners_reversal_window_hours_range');
  await knex.raw('alter table partners drop column reversal_window_hours');
}
