// The ledger partitioned by month of occurred_at (docs/decisions.md 25): the table is rebuilt as a
// partitioned one and its rows copied over. Every unique index of a partitioned table must hold the
// partition key, so the primary key and the two partial unique rules gain occurred_at: a second
// finance transaction of an order, or a second cash / commission transaction of a payment, carries
// the order's / the payment's time, the same as the first, and is still refused. Months from the
// earliest row's (the current one on an empty ledger) to three ahead, and a default partition for
// any other time; the service makes later months itself (src/db/partitions.ts).
import type { Knex } from 'knex';

const COLUMNS =
  'partner_id, id, type, amount_minor, currency, occurred_at, merchant_id, finance_order_id, payment_id, clerk_id, adjustment_id, created_at';

const TYPE_FIELDS = `(type = 'finance' and finance_order_id is not null and clerk_id is not null and payment_id is null and adjustment_id is null)
  or (type = 'cash' and payment_id is not null and finance_order_id is not null and clerk_id is not null and adjustment_id is null)
  or (type = 'commission' and payment_id is not null and finance_order_id is not null and adjustment_id is null)
  or (type = 'adjustment' and adjustment_id is not null and payment_id is null)`;

const table = (name: string, partitioned: boolean) => `create table ${name} (
  partner_id bigint not null constraint transactions_partner_id_foreign references partners (id),
  id bigint not null default nextval('transactions_id_seq'),
  type text not null,
  amount_minor bigint not null,
  currency char(3) not null,
  occurred_at timestamptz not null,
  merchant_id bigint not null,
  finance_order_id bigint,
  payment_id bigint,
  clerk_id bigint,
  adjustment_id bigint,
  created_at timestamptz not null default current_timestamp,
  constraint transactions_pkey primary key (partner_id, id${partitioned ? ', occurred_at' : ''}),
  constraint transactions_partner_id_merchant_id_foreign foreign key (partner_id, merchant_id) references merchants (partner_id, id),
  constraint transactions_partner_id_finance_order_id_foreign foreign key (partner_id, finance_order_id) references finance_orders (partner_id, id),
  constraint transactions_partner_id_payment_id_foreign foreign key (partner_id, payment_id) references payments (partner_id, id),
  constraint transactions_partner_id_clerk_id_foreign foreign key (partner_id, clerk_id) references clerks (partner_id, id),
  constraint transactions_partner_id_adjustment_id_foreign foreign key (partner_id, adjustment_id) references adjustments (partner_id, id),
  constraint transactions_type_fields check (${TYPE_FIELDS})
)${partitioned ? ' partition by range (occurred_at)' : ''}`;

const indexes = (partitioned: boolean) => {
  const key = partitioned ? ', occurred_at' : '';
  return [
    // list-transactions: one partner's window, in (time, id) order.
    'create index transactions_partner_id_occurred_at_id_index on transactions (partner_id, occurred_at, id)',
    // At most one finance transaction per order and one cash / commission transaction per payment.
    `create unique index transactions_one_finance_per_order on transactions (partner_id, finance_order_id${key}) where type = 'finance'`,
    `create unique index transactions_one_per_payment_and_type on transactions (partner_id, payment_id, type${key}) where payment_id is not null`,
  ];
};

/** Moves the ledger into a new table shaped by `partitioned`, keeping the id sequence. */
async function rebuild(knex: Knex, partitioned: boolean): Promise<void> {
  await knex.raw('alter sequence transactions_id_seq owned by none');
  await knex.raw('alter table transactions rename to transactions_before');
  await knex.raw('alter table transactions_before rename constraint transactions_pkey to transactions_before_pkey');
  for (const index of [
    'transactions_partner_id_occurred_at_id_index',
    ...['finance_per_order', 'per_payment_and_type'].map((n) => `transactions_one_${n}`),
  ]) {
    await knex.raw(`drop index ${index}`);
  }
  await knex.raw(table('transactions', partitioned));
  if (partitioned) {
    const { rows } = (await knex.raw(
      `select date_trunc('month', coalesce(min(occurred_at), now()), 'UTC') as first from transactions_before`,
    )) as { rows: Array<{ first: Date }> };
    await makeMonths(knex, 'transactions', new Date(rows[0]!.first));
  }
  for (const statement of indexes(partitioned)) await knex.raw(statement);
  await knex.raw(`insert into transactions (${COLUMNS}) select ${COLUMNS} from transactions_before`);
  await knex.raw('drop table transactions_before');
  await knex.raw('alter sequence transactions_id_seq owned by transactions.id');
}

/** Month partitions from `first`'s month to three months after the current one, and the default. */
export async function makeMonths(knex: Knex, name: string, first: Date): Promise<void> {
  const now = new Date();
  const last = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 3, 1);
  for (let y = first.getUTCFullYear(), m = first.getUTCMonth(); Date.UTC(y, m, 1) <= last; m++) {
    const from = new Date(Date.UTC(y, m, 1));
    const to = new Date(Date.UTC(y, m + 1, 1));
    const suffix = `y${from.getUTCFullYear()}m${String(from.getUTCMonth() + 1).padStart(2, '0')}`;
    await knex.raw(
      `create table ${name}_${suffix} partition of ${name} for values from ('${from.toISOString()}') to ('${to.toISOString()}')`,
    );
  }
  await knex.raw(`create table ${name}_default partition of ${name} default`);
}

export async function up(knex: Knex): Promise<void> {
  await rebuild(knex, true);
}

export async function down(knex: Knex): Promise<void> {
  await rebuild(knex, false);
}
