// Device.events (docs/decisions.md 46): a device's events in its partner's log, newest first, read
// along (partner_id, the device's tag in the data, sequence). Every event that names a device carries
// it as data.device { tag, imei } (the tag unique and never changed; the imei may be null), so the
// index holds only those: the payments' and transactions' events, most of the log, are left out.
// Made on the partitioned parent, it is made on every month and on each month made or attached later;
// the log is kept about two months (decisions.md 25), which bounds the build.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `create index events_partner_device_sequence on events (partner_id, ((data->'device'->>'tag')), sequence)
     where (data->'device'->>'tag') is not null`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index events_partner_device_sequence');
}
