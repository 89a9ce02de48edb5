// What lets the service be sharded by partner (docs/operating.md#scaling), proven from the database itself
// rather than asserted in prose:
//   (a) every table with a partner_id column leads its primary key with it and has it in every unique
//       index (so a distributed Postgres such as Citus can enforce them shard by shard), except the
//       global tables of test/support/shardCatalogue.ts, each with its reason;
//   (b) every foreign key between two partner tables pairs partner_id with partner_id (co-located), and
//       none runs from a global table into a tenant table;
//   (e) no trigger on a tenant table, and no trigger anywhere that writes a table (decisions.md 48);
//   (f) a migration that creates a tenant table places it before its keys (decisions.md 52).
// (c) and (d), on the statements partner requests and vendor notifications send, are
// test/reliability/scaling-invariants-requests.test.ts. Their checker (test/support/partnerScope.ts) is
// plain text analysis of the SQL, proven below to fail on statements that drop the filter (one union
// branch, a join, an OR, a nested subquery), so a regression cannot pass.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COORDINATOR_TABLES, planDistribution, REFERENCE_TABLES, readSchemaTables } from '../../src/db/distribution.js';
import type { Db } from '../../src/db/knex.js';
import { useSeededService } from '../support/fixtures.js';
import { partnerScope } from '../support/partnerScope.js';
import {
  REFERENCE_TABLES as CATALOGUE_REFERENCE_TABLES,
  crossShardForeignKeys,
  GLOBAL_WITH_PARTNER_ID,
  globalToTenantKeys,
  hasPartnerId,
  readCatalogue,
  shardKeyViolations,
  tenantTables,
  triggerViolations,
} from '../support/shardCatalogue.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const fixture = useSeededService({ now: NOW });
const db = (): Db => fixture.database.db;

/** The last migration written before decisions.md 52: every one after it places its new tenant tables itself. */
const LAST_MIGRATION_BEFORE_RULE_52 = '20261202000100_distributable_schema.ts';

/** The migrations that create a table with a partner_id and never call distributeNewTenantTable. */
function migrationsMakingTenantTablesUnplaced(migrations: ReadonlyArray<{ file: string; source: string }>): string[] {
  return migrations
    .filter(({ source }) => /\bcreateTable\(/.test(source) && source.includes('partner_id'))
    .filter(({ source }) => !source.includes('distributeNewTenantTable('))
    .map(({ file }) => file);
}

describe('(a, b, e) the schema can be sharded by partner (pg_catalog)', () => {
  it('every table with partner_id leads its primary key with it and has it in every unique index, except the global tables', async () => {
    const catalogue = await readCatalogue(db());
    // No exception inside a tenant table: what must be unique across partners has a directory (decisions.md 48).
    expect(shardKeyViolations(catalogue)).toEqual(Object.values(GLOBAL_WITH_PARTNER_ID).flat().sort());
    // The tenant tables themselves, so a new one is seen here (and must satisfy the rule to get in).
    expect([...tenantTables(catalogue)].sort()).toEqual([
      'adjustments',
      'carts',
      'clerks',
      'customers',
      'device_commands',
      'device_credentials',
      'devices',
      'events',
      'finance_orders',
      'idempotency_keys',
      'lock_timeline',
      'merchants',
      'payment_references',
      'payment_reversals',
      'payments',
      'portfolio_snapshots',
      'report_file_chunks',
      'report_runs',
      'sandbox_clocks',
      'transactions',
      'webhook_attempts',
      'webhook_deliveries',
      'webhook_endpoints',
    ]);
  });

  it('every foreign key between two partner tables pairs partner_id with partner_id (co-located)', async () => {
    const catalogue = await readCatalogue(db());
    expect(crossShardForeignKeys(catalogue)).toEqual([]);
    const tenant = tenantTables(catalogue);
    const between = catalogue.foreignKeys.filter((key) => tenant.has(key.from) && tenant.has(key.to));
    expect(between.length, 'there are foreign keys to check').toBeGreaterThan(10);
    // A tenant table references only tenant tables (co-located) or reference tables (copied to every node).
    const referenced = catalogue.foreignKeys
      .filter((key) => tenant.has(key.from) && !hasPartnerId(catalogue, key.to))
      .map((key) => key.to);
    expect([...new Set(referenced)].sort()).toEqual(
      CATALOGUE_REFERENCE_TABLES.filter((table) => table !== 'device_families'),
    );
    for (const table of CATALOGUE_REFERENCE_TABLES) expect(hasPartnerId(catalogue, table), table).toBe(false);
    // And what a distributed Postgres could not keep: global tables pointing into tenant tables.
    expect(globalToTenantKeys(catalogue)).toEqual([]);
  });

  it('no trigger on a tenant table, and no trigger that writes a table (decisions.md 48)', async () => {
    const catalogue = await readCatalogue(db());
    expect(triggerViolations(catalogue)).toEqual([]);
    // The triggers there are, so the check is seen to read them: the audit trail's, which only raise.
    expect(catalogue.triggers.map((trigger) => `${trigger.table}.${trigger.name}`).sort()).toEqual([
      'audit_events.audit_events_no_truncate',
      'audit_events.audit_events_no_update_or_delete',
    ]);
  });

  it('every table has its place on Citus (src/db/distribution.ts), each after the tables it references', async () => {
    const catalogue = await readCatalogue(db());
    const plan = planDistribution(await readSchemaTables(db()));
    expect(plan.unplaced).toEqual([]);
    expect([...plan.distributed].sort()).toEqual([...tenantTables(catalogue)].sort());
    const global: string[] = [...REFERENCE_TABLES, ...COORDINATOR_TABLES];
    for (const table of [...Object.keys(GLOBAL_WITH_PARTNER_ID), ...CATALOGUE_REFERENCE_TABLES])
      expect(global, table).toContain(table);
    for (const order of [plan.reference, plan.distributed]) {
      for (const key of catalogue.foreignKeys.filter((k) => order.includes(k.from) && order.includes(k.to)))
        if (key.from !== key.to)
          expect(order.indexOf(key.to), `${key.from} -> ${key.to}`).toBeLessThan(order.indexOf(key.from));
    }
    // A table nobody placed is named, not guessed.
    expect(
      planDistribution({
        tables: [...catalogue.tables.keys()]
          .map((name) => ({ name, tenant: false }))
          .concat({ name: 'stray', tenant: false }),
        foreignKeys: [],
      }).unplaced,
    ).toContain('stray');
  });

  it('a migration after decisions.md 52 that creates a tenant table distributes it before its keys (distributeNewTenantTable)', () => {
    const folder = resolve(import.meta.dirname, '../../migrations');
    const later = readdirSync(folder)
      .filter((file) => file.endsWith('.ts') && file > LAST_MIGRATION_BEFORE_RULE_52)
      .map((file) => ({ file, source: readFileSync(resolve(folder, file), 'utf8') }));
    expect(migrationsMakingTenantTablesUnplaced(later)).toEqual([]);
    // Proof it can fail: a new tenant table made and keyed with no placing between.
    const keyed = `await knex.schema.createTable('notes', (t) => { t.bigInteger('partner_id'); t.foreign('partner_id') });`;
    expect(migrationsMakingTenantTablesUnplaced([{ file: 'x.ts', source: keyed }])).toEqual(['x.ts']);
    expect(
      migrationsMakingTenantTablesUnplaced([
        { file: 'y.ts', source: `${keyed} await distributeNewTenantTable(knex, 'notes');` },
      ]),
    ).toEqual([]);
  });

  it('the catalogue checks fail on a table that breaks them (proof they can fail)', async () => {
    const trx = await db().transaction();
    try {
      await trx.raw(
        'create table scaling_bad_parent (partner_id bigint not null, id bigint, code text unique, primary key (partner_id, id))',
      );
      await trx.raw('create unique index scaling_bad_parent_id on scaling_bad_parent (id)');
      await trx.raw(
        'create table scaling_bad_child2 (partner_id bigint not null, id bigint, parent_id bigint, primary key (partner_id, id), foreign key (parent_id) references scaling_bad_parent (id))',
      );
      // A global table (no partner_id) pointing into a tenant table, kept by a trigger on the tenant table.
      await trx.raw(
        'create table scaling_bad_global (id bigint primary key, owner bigint, foreign key (owner, id) references scaling_bad_parent (partner_id, id))',
      );
      await trx.raw(`create function scaling_bad_copy() returns trigger language plpgsql as $$
        begin
          -- a comment that says delete from nowhere is not a write
          if tg_op = 'UPDATE' then raise notice 'insert into is a message'; end if;
          insert into scaling_bad_global (id, owner) values (new.id, new.partner_id);
          return new;
        end $$`);
      await trx.raw(
        'create trigger scaling_bad_copy after insert or update on scaling_bad_parent for each row execute function scaling_bad_copy()',
      );
      // A trigger on a global table that writes: refused wherever it sits.
      await trx.raw(`create function scaling_bad_touch() returns trigger language plpgsql as $$
        begin update scaling_bad_parent set code = null where id = new.id; return new; end $$`);
      await trx.raw(
        'create trigger scaling_bad_touch after insert on scaling_bad_global for each row execute function scaling_bad_touch()',
      );
      const catalogue = await readCatalogue(trx);
      const violations = shardKeyViolations(catalogue).filter((line) => line.startsWith('scaling_'));
      expect(violations).toEqual(['scaling_bad_parent: unique (code)', 'scaling_bad_parent: unique (id)']);
      expect(crossShardForeignKeys(catalogue).filter((line) => line.startsWith('scaling_'))).toEqual([
        'scaling_bad_child2(parent_id) -> scaling_bad_parent(id)',
      ]);
      expect(globalToTenantKeys(catalogue)).toEqual([
        'scaling_bad_global(owner,id) -> scaling_bad_parent(partner_id,id)',
      ]);
      expect(triggerViolations(catalogue)).toEqual([
        'scaling_bad_global: trigger scaling_bad_touch runs scaling_bad_touch(), which writes (update)',
        'scaling_bad_parent: trigger scaling_bad_copy',
        'scaling_bad_parent: trigger scaling_bad_copy runs scaling_bad_copy(), which writes (insert)',
      ]);
    } finally {
      await trx.rollback();
    }
  });
});

describe('the SQL checker fails on statements that drop the partner filter (proof it can fail)', () => {
  const TENANT = ['customers', 'devices', 'finance_orders', 'payments', 'transactions', 'merchants', 'clerks'];
  const catalogue = {
    tables: new Set([...TENANT, 'device_directory', 'api_keys', 'device_models', 'partners']),
    tenant: new Set(TENANT),
    withPartnerId: new Set([...TENANT, 'device_directory', 'api_keys']),
  };
  const problemsOf = (sql: string) => partnerScope(sql, catalogue).problems;

  it.each([
    ['a bound value', 'select * from "customers" where "partner_id" = $1 and "id" = $2'],
    ['an IN list', 'select * from "clerks" where "partner_id" in ($1) order by "id"'],
    [
      'unnest of tenant keys',
      'select * from "payments" where ("partner_id", "id") in (select * from unnest($1::int8[], $2::int8[]))',
    ],
    [
      'a join chain',
      'select * from "transactions" as "t" left join "finance_orders" as "o" on "o"."partner_id" = "t"."partner_id" and "o"."id" = "t"."finance_order_id" left join "devices" as "d" on "d"."partner_id" = "o"."partner_id" and "d"."id" = "o"."device_id" where "t"."partner_id" = $1',
    ],
    [
      'UNION ALL, each branch pinned',
      'select id from payments where partner_id = $1 union all select id from payments where partner_id = $2 and id = $3',
    ],
    [
      'a join to unnested keys',
      'select p.* from unnest($1::int8[], $2::int8[]) as k(partner_id, id) join payments p on p.partner_id = k.partner_id and p.id = k.id',
    ],
    [
      'a CTE',
      'with o as (select * from finance_orders where partner_id = $1 and id = $2) select * from o join payments p on p.partner_id = o.partner_id',
    ],
    [
      'a correlated subquery',
      'select o.*, (select count(*) from payments p where p.partner_id = o.partner_id and p.finance_order_id = o.id) from finance_orders o where o.partner_id = $1',
    ],
    ['an insert', 'insert into "transactions" ("amount_minor", "partner_id") values ($1, $2) returning "id"'],
    [
      'an update',
      'update "finance_orders" set "total_paid_minor" = total_paid_minor + $1::int8 where "partner_id" = $2 and "id" = $3',
    ],
    [
      'a lateral join',
      'select * from devices d left join lateral (select * from finance_orders o where o.partner_id = d.partner_id order by o.id desc limit 1) as last on true where d.partner_id = $1',
    ],
  ])('passes %s', (_, sql) => {
    expect(problemsOf(sql)).toEqual([]);
  });

  it.each([
    [
      'an id alone',
      'select * from "finance_orders" where "id" = $1 limit $2',
      ['finance_orders is not pinned by partner_id'],
    ],
    [
      'a phone number alone',
      'select * from "customers" where "phone_number" = $1 order by "partner_id" asc',
      ['customers is not pinned by partner_id'],
    ],
    [
      'one UNION ALL branch without it',
      'select id from payments where partner_id = $1 union all select id from payments where id = $2',
      ['payments is not pinned by partner_id'],
    ],
    [
      'a join on the id alone',
      'select * from transactions t left join merchants m on m.id = t.merchant_id where t.partner_id = $1',
      ['merchants (as m) is not pinned by partner_id'],
    ],
    [
      'a filter under OR',
      'select * from customers where partner_id = $1 or phone_number = $2',
      ['customers is not pinned by partner_id'],
    ],
    [
      'a filter that belongs to a nested subquery',
      'select * from payments where id in (select payment_id from transactions where partner_id = $1)',
      ['payments is not pinned by partner_id'],
    ],
    [
      'partner ids taken from a global table',
      'select * from devices where (partner_id, id) in (select partner_id, device_id from device_directory where imei = $1)',
      ['devices is not pinned by partner_id'],
    ],
    [
      'an update that sets partner_id',
      'update payments set partner_id = $1 where id = $2',
      ['payments is not pinned by partner_id'],
    ],
    [
      'an insert without partner_id',
      'insert into payments (id, amount_minor) values ($1, $2)',
      ['payments is not pinned by partner_id'],
    ],
    [
      'a join to an unpinned table',
      'select * from customers c join devices d on d.partner_id = c.partner_id where c.id = $1',
      ['customers (as c) is not pinned by partner_id', 'devices (as d) is not pinned by partner_id'],
    ],
    [
      'a CTE without it',
      'with o as (select * from finance_orders where id = $1) select * from o join payments p on p.partner_id = o.partner_id',
      ['finance_orders is not pinned by partner_id', 'payments (as p) is not pinned by partner_id'],
    ],
    [
      'a shape it cannot place',
      'select * from (payments p join transactions t on t.partner_id = p.partner_id) where p.partner_id = $1',
      [
        'payments is mentioned where the checker cannot place it',
        'transactions is mentioned where the checker cannot place it',
      ],
    ],
  ])('fails %s', (_, sql, expected) => {
    expect(problemsOf(sql).sort()).toEqual([...expected].sort());
  });
});
