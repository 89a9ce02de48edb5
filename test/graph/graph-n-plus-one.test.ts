// No N+1: a page of transactions with their merchant, clerk, order, device (model and family),
// payment and adjustment takes a fixed number of SQL statements, whatever the number of rows: the
// links the query selects are joined into the listing's one statement (transactions/selection.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBulkOrders } from '../support/bulk.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startTestService, type TestService } from '../support/service.js';
import { statementsDuring } from '../support/statements.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const T = Date.parse('2026-06-10T00:00:00Z') / 1000;
const DAY = 86_400;
let database: TestDatabase;
let service: TestService;

beforeAll(async () => {
  database = await createTestDatabase({ now: NOW });
  // 500 transactions (finance and cash; commission rows are skipped by the filter below), all older
  // than T-100d: the window from T-100d holds only the demo's five, one of each type (two finance).
  await addBulkOrders(database.db, 250, new Date((T - 101 * DAY) * 1000));
  await database.db('transactions').where('payment_id', '>=', 7300000).where({ type: 'commission' }).delete();
  service = await startTestService(database.db, { now: () => NOW });
});
afterAll(async () => {
  await service?.close();
  await database?.destroy();
});

const LIST = `query($start: Timestamp!) { transactions(start: $start, end: ${T}) {
  nodes { id type amount time merchant { id name }
    ... on FinanceTransaction { salesClerk { id name } financeOrder { id purchaseAmount financeAmount } device { imei simNumber model { id makeModel name } family { id name } } }
    ... on CashTransaction { salesClerk { id name } payment { id amount time } financeOrder { id } }
    ... on CommissionTransaction { payment { id } financeOrder { id } }
    ... on AdjustmentTransaction { adjustment { id kind notes } } } } }`;

async function statementsFor(start: number): Promise<{ statements: number; rows: number; types: string[] }> {
  const { result, statements } = await statementsDuring(database.db, () =>
    service.graphql(LIST, { 'x-api-key': 'demo-partner-key' }, { start }),
  );
  expect(result.body.errors).toBeUndefined();
  const nodes: Array<{ type: string }> = result.body.data.transactions.nodes;
  return {
    statements: statements.length,
    rows: nodes.length,
    types: [...new Set(nodes.map((node) => node.type))].sort(),
  };
}

describe('transactions with everything they link to', () => {
  it('take 2 statements for 500 rows (the key, the listing), the same as for 5 rows of the same types', async () => {
    const many = await statementsFor(T - 365 * DAY);
    const few = await statementsFor(T - 100 * DAY);
    expect(many.rows).toBe(505);
    expect(few.rows).toBe(5);
    expect(many.types).toEqual(['ADJUSTMENT', 'CASH', 'COMMISSION', 'FINANCE']);
    expect(few.types).toEqual(many.types);
    expect(many.statements).toBe(2);
    expect(many.statements).toBe(few.statements);
  });
});
