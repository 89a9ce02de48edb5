// The snapshot task's statements as Citus routes them (decisions.md 48), on every backend: the partners
// read from their own table, then each partner's facts and days by statements that pin every tenant
// table they name to that partner, so each runs on one shard (a subquery correlated to the partners'
// rows spans every shard, which Citus refuses). What the days hold is test/graph/portfolio-history.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { scopedStatementsDuring } from '../../../test/support/pinnedStatements.js';
import { writeDueSnapshots } from './snapshots.js';

const NOW = new Date('2026-12-02T12:00:00.000Z');

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ now: NOW });
});
afterAll(async () => {
  await database?.destroy();
});

const run = (maxDays: number) =>
  writeDueSnapshots(database.db, { now: NOW, production: false, backfillDays: 3, maxDays });

describe('writeDueSnapshots', () => {
  it("writes every partner's days by statements each pinned to one partner", async () => {
    const { result, statements } = await scopedStatementsDuring(database.db, () => run(100));
    expect(result.map((partner) => [partner.partnerId, partner.days])).toEqual([
      ['1', 3],
      ['2', 3],
    ]);
    expect(statements.filter((statement) => statement.unpinned.length > 0)).toEqual([]);
    // Each partner's facts read once, then a day per transaction.
    expect(
      statements.filter((statement) => /from partners p left join sandbox_clocks/.test(statement.sql)),
    ).toHaveLength(2);
  });

  it('stops at the batch: the partners after it are read on the next call, which makes their days', async () => {
    await database.db('portfolio_snapshots').delete();
    expect((await run(2)).map((partner) => [partner.partnerId, partner.days])).toEqual([['1', 2]]);
    expect((await run(100)).map((partner) => [partner.partnerId, partner.days])).toEqual([
      ['1', 1],
      ['2', 3],
    ]);
    expect(await run(100)).toEqual([]);
  });
});
