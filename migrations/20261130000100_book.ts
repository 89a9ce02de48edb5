// The book (docs/decisions.md 45): portfolio figures as of a moment, a snapshot of them a day, and
// report runs with their files.
// - payments and payment_reversals get an index by the partner's time, with what the figures read
//   beside it: the figures as of a moment read the ledger after that moment (an index-only range);
// - portfolio_snapshots: per partner, day (00:00 UTC of the partner's clock) and currency, the sums the
//   figures are computed from (numerators and denominators), never the rounded ratios;
// - report_runs and report_file_chunks: a run, its state and lease, its link key, and its CSV file in
//   256 KiB rows, so any api instance serves it;
// - the event types of a run that ended.
import type { Knex } from 'knex';

const EARLIER_TYPES =
  "'payment.recorded', 'transaction.created', 'finance_order.created', 'finance_order.paid_off', 'webhook.test', " +
  "'device.lock_upcoming', 'device.locked', 'device.unlocked', 'device.released', 'device.checked_in', " +
  "'device.command_acknowledged', 'payment.reversed', 'finance_order.written_off', 'finance_order.returned'";
const BOOK_TYPES = "'report_run.succeeded', 'report_run.failed'";

const eventTypesCheck = (types: string) =>
  `alter table events add constraint events_type_known check (type in (${types}))`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'create index payments_partner_received on payments (partner_id, received_at) include (finance_order_id, amount_minor)',
  );
  await knex.raw(
    `create index payment_reversals_partner_reversed on payment_reversals (partner_id, reversed_at)
     include (finance_order_id, amount_minor)`,
  );

  await knex.schema.createTable('portfolio_snapshots', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    // The day whose 00:00:00 UTC (the partner's clock) the figures are as of.
    t.date('day').notNullable();
    t.specificType('currency', 'char(3)').notNullable();
    t.timestamp('as_of', { useTz: true }).notNullable();
    t.integer('open_orders').notNullable();
    t.bigInteger('outstanding_minor').notNullable();
    t.bigInteger('par30_minor').notNullable();
    t.bigInteger('par60_minor').notNullable();
    t.bigInteger('par90_minor').notNullable();
    t.integer('locked_orders').notNullable();
    // collectionRate = collected ÷ due; firstPaymentDefaultRate = defaulted ÷ eligible.
    t.bigInteger('collected_minor').notNullable();
    t.bigInteger('due_minor').notNullable();
    t.integer('first_payment_defaulted').notNullable();
    t.integer('first_payment_eligible').notNullable();
    // writeOffRatio = written off ÷ the mean of the outstanding at the period's start and at as_of.
    t.bigInteger('written_off_minor').notNullable();
    t.bigInteger('period_start_outstanding_minor').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['partner_id', 'day', 'currency']);
  });

  await knex.schema.createTable('report_runs', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    t.bigIncrements('id', { primaryKey: false });
    t.text('type').notNullable();
    t.text('state').notNullable().defaultTo('PENDING');
    // The window (TRANSACTIONS, PORTFOLIO_HISTORY) or the moment (AGEING), in the partner's time.
    t.timestamp('window_start', { useTz: true }).nullable();
    t.timestamp('window_end', { useTz: true }).nullable();
    t.timestamp('as_of', { useTz: true }).nullable();
    // Who asked: a partner key (api_key_id) or an operator.
    t.text('requested_by').notNullable();
    t.bigInteger('api_key_id').nullable();
    // Real time, as every record that is not the partner's business.
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('started_at', { useTz: true }).nullable();
    t.timestamp('finished_at', { useTz: true }).nullable();
    // The worker's lease while RUNNING, and the attempts taken (a lapsed lease is taken again).
    t.timestamp('claimed_until', { useTz: true }).nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('failure_code').nullable();
    t.text('failure_message').nullable();
    t.bigInteger('row_count').nullable();
    t.bigInteger('byte_size').nullable();
    t.text('sha256').nullable();
    t.timestamp('expires_at', { useTz: true }).nullable();
    // The run's own HMAC key for its signed links: made with the run, never shown.
    t.binary('link_key').notNullable();
    t.primary(['partner_id', 'id']);
    t.index(['id']);
    t.check("type in ('TRANSACTIONS', 'AGEING', 'PORTFOLIO_HISTORY')", [], 'report_runs_type_known');
    t.check("state in ('PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED')", [], 'report_runs_state_known');
    t.check("requested_by in ('partner', 'operator')", [], 'report_runs_requested_by_known');
  });
  // The worker's claim: the runs waiting or under way, oldest first.
  await knex.raw(
    "create index report_runs_to_run on report_runs (created_at, partner_id, id) where state in ('PENDING', 'RUNNING')",
  );
  // The retention chore: succeeded runs whose file is still kept, by expiry.
  await knex.raw('create index report_runs_kept on report_runs (expires_at) where expires_at is not null');

  await knex.schema.createTable('report_file_chunks', (t) => {
    t.bigInteger('partner_id').notNullable();
    t.bigInteger('run_id').notNullable();
    t.integer('seq').notNullable();
    t.binary('bytes').notNullable();
    t.primary(['partner_id', 'run_id', 'seq']);
    t.foreign(['partner_id', 'run_id']).references(['partner_id', 'id']).inTable('report_runs').onDelete('CASCADE');
  });

  await knex.raw('alter table events drop constraint events_type_known');
  await knex.raw(eventTypesCheck(`${EARLIER_TYPES}, ${BOOK_TYPES}`));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`delete from events where type in (${BOOK_TYPES})`);
  await knex.raw('alter table events drop constraint events_type_known');
  await knex.raw(eventTypesCheck(EARLIER_TYPES));
  await knex.schema.dropTable('report_file_chunks');
  await knex.schema.dropTable('report_runs');
  await knex.schema.dropTable('portfolio_snapshots');
  await knex.raw('drop index payment_reversals_partner_reversed');
  await knex.raw('drop index payments_partner_received');
}
