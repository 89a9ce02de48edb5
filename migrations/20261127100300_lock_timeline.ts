// The lock timeline (docs/decisions.md 18): the instants at which a device's reminders and lock are
// due, claimed by the schedulers of every instance, and the four device event types they and the
// payments write. An instant's due_at is in its partner's time (a sandbox clock may run ahead),
// fire_at the same instant in real time: the schedulers claim by fire_at, along a partial index of
// the pending rows only, so fired and cancelled history costs the claim nothing.
// The unpaid orders that exist when the table is made get the instants of their lockAt then (every
// partner on the default policy: grace 0, reminders 3 and 1 days): the lock and the reminders still
// ahead are pending; a lock already past is recorded fired without an event (the log does not tell
// of a lock that happened before it could), so a payment that unlocks such an order says so.
import type { Knex } from 'knex';

const EARLIER_TYPES =
  "'payment.recorded', 'transaction.created', 'finance_order.created', 'finance_order.paid_off', 'webhook.test'";
const DEVICE_TYPES = "'device.lock_upcoming', 'device.locked', 'device.unlocked', 'device.released'";

export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table events drop constraint events_type_known');
  await knex.raw(
    `alter table events add constraint events_type_known check (type in (${EARLIER_TYPES}, ${DEVICE_TYPES}))`,
  );
  await knex.schema.createTable('lock_timeline', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('finance_order_id').notNullable();
    t.text('kind').notNullable();
    // A reminder's days before the lock (null for the lock).
    t.integer('days_left').nullable();
    // The deadline the instant belongs to, and the instant itself, in the partner's time.
    t.timestamp('lock_at', { useTz: true }).notNullable();
    t.timestamp('due_at', { useTz: true }).notNullable();
    // The instant in real time: due_at minus the partner's clock offset when it was made (or shifted).
    t.timestamp('fire_at', { useTz: true }).notNullable();
    t.text('state').notNullable().defaultTo('pending');
    t.timestamp('fired_at', { useTz: true }).nullable();
    t.primary(['partner_id', 'id']);
    t.foreign(['partner_id', 'finance_order_id']).references(['partner_id', 'id']).inTable('finance_orders');
    t.check("kind in ('reminder', 'lock')", [], 'lock_timeline_kind_known');
    t.check("(kind = 'reminder') = (days_left is not null)", [], 'lock_timeline_days_left_of_reminders');
    t.check("state in ('pending', 'fired', 'skipped', 'cancelled', 'lifted')", [], 'lock_timeline_state_known');
    // A payment closes an order's instants; a settings change or a clock closes a partner's.
    t.index(['partner_id', 'finance_order_id']);
  });
  // The schedulers' claim: pending instants only, the earliest first.
  await knex.raw("create index lock_timeline_due on lock_timeline (fire_at, id) where state = 'pending'");
  await knex.raw(
    `insert into lock_timeline (partner_id, finance_order_id, kind, days_left, lock_at, due_at, fire_at, state, fired_at)
     select o.partner_id, o.id, i.kind, i.days_left, l.lock_at, i.due_at, i.due_at,
            case when i.due_at > now() then 'pending' else 'fired' end,
            case when i.due_at > now() then null else now() end
     from finance_orders o
     cross join lateral (select date_trunc('milliseconds', o.ordered_at)
         + (30 + o.total_paid_minor * 30 / o.monthly_cost_minor) * interval '86400 seconds' as lock_at) l
     cross join lateral (
       select 'lock' as kind, null::int as days_left, l.lock_at as due_at
       union all
       select 'reminder', d, l.lock_at - d * interval '1 day' from unnest('{3,1}'::int[]) d) i
     where o.total_paid_minor < o.monthly_cost_minor * o.months
       and (i.kind = 'lock' or i.due_at > now())
     order by o.partner_id, o.id, i.due_at`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('lock_timeline');
  // The device events (and, by cascade, their deliveries) have no place in the earlier log.
  await knex.raw(`delete from events where type in (${DEVICE_TYPES})`);
  await knex.raw('alter table events drop constraint events_type_known');
  await knex.raw(`alter table events add constraint events_type_known check (type in (${EARLIER_TYPES}))`);
}
