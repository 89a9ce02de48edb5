import { describe, expect, it } from 'vitest';
import { type ArrayRows, joinedRow, rowReader, sourcesOf } from './joinedRows.js';

/** An answer of the given columns with each row as an array (rowMode 'array'). */
const answerOf = (columns: string[], ...rows: unknown[][]): ArrayRows => ({
  fields: columns.map((name) => ({ name })),
  rows,
});

describe('rowReader', () => {
  const read = rowReader<Record<string, unknown>>(
    ['id', 'amount'],
    [
      { prefix: 'merchant', fields: ['id', 'name'] },
      { prefix: 'payment', fields: ['id', 'received_at'] },
    ],
    'links',
  );
  const columns = ['id', 'amount', 'merchant__id', 'merchant__name', 'payment__id', 'payment__received_at'];
  const values = ['7', '-1800', '851005', 'DEMO', null, null];
  const answer = answerOf(columns, values);

  it('reads its own columns and each joined row, null where the join found none', () => {
    expect(read(answer)).toEqual([
      { id: '7', amount: '-1800', links: { merchant: { id: '851005', name: 'DEMO' }, payment: null } },
    ]);
  });

  it('reads what joinedRow takes, field for field', () => {
    const merchant = joinedRow('merchant', sourcesOf('m', ['id', 'name']));
    const byName = Object.fromEntries(columns.map((column, i) => [column, values[i]]));
    expect((read(answer)[0]!.links as Record<string, unknown>).merchant).toEqual(merchant.take(byName));
  });

  it('reads each column by its position in the answer, whatever the order, and every row', () => {
    const reordered = [...columns].reverse();
    const rows = [[...values].reverse(), [null, null, 'OTHER', '851006', '-500', '8']];
    expect(read(answerOf(reordered, ...rows))).toEqual([
      { id: '7', amount: '-1800', links: { merchant: { id: '851005', name: 'DEMO' }, payment: null } },
      { id: '8', amount: '-500', links: { merchant: { id: '851006', name: 'OTHER' }, payment: null } },
    ]);
    // The first column list is still read as it was.
    expect(read(answer)[0]!.id).toBe('7');
  });

  it('reads an answer with no rows, and extra columns it does not know', () => {
    expect(read(answerOf(columns))).toEqual([]);
    expect(read(answerOf([...columns, 'extra'], [...values, 'x']))[0]).not.toHaveProperty('extra');
  });

  it('holds a joined row asked alsoAs at the top of its row too: the same object, null there where the join found none', () => {
    const atTop = rowReader<Record<string, unknown>>(
      ['id', 'amount'],
      [
        { prefix: 'merchant', fields: ['id', 'name'], alsoAs: 'merchant_row' },
        { prefix: 'payment', fields: ['id', 'received_at'], alsoAs: 'payment_row' },
      ],
      'links',
    );
    const [row] = atTop(answer);
    expect(row).toEqual({
      id: '7',
      amount: '-1800',
      links: { merchant: { id: '851005', name: 'DEMO' }, payment: null },
      merchant_row: { id: '851005', name: 'DEMO' },
      payment_row: null,
    });
    expect(row!.merchant_row).toBe((row!.links as Record<string, unknown>).merchant);
    expect(() =>
      rowReader(['id'], [{ prefix: 'merchant', fields: ['id'], alsoAs: 'x"' }], 'links')(answerOf(['id'])),
    ).toThrow(/not a column name/);
  });

  it('names a column the statement did not read', () => {
    expect(() => read(answerOf(columns.slice(0, -1), values.slice(0, -1)))).toThrow(
      /has no column payment__received_at/,
    );
  });

  it('makes each computed field from its columns, in their order, as each row is read', () => {
    const withTotal = rowReader<Record<string, unknown>>(['id', 'amount'], [], 'links', [
      { name: 'label', from: ['amount', 'id'], compute: (amount: string, id: string) => `${id}:${amount}` },
    ]);
    const reordered = answerOf(['amount', 'id'], ['-1800', '7'], ['5', '8']);
    expect(withTotal(reordered)).toEqual([
      { id: '7', amount: '-1800', label: '7:-1800', links: {} },
      { id: '8', amount: '5', label: '8:5', links: {} },
    ]);
    expect(() => rowReader(['id'], [], 'links', [{ name: 'x"', from: ['id'], compute: String }])).toThrow(
      /not a column name/,
    );
  });

  it("makes a joined row's computed fields from its own columns, only those whose columns it reads", () => {
    const label = { name: 'label', from: ['name', 'id'], compute: (name: string, id: string) => `${id}:${name}` };
    const city = { name: 'where', from: ['city'], compute: String };
    const withLabel = rowReader<Record<string, unknown>>(
      ['id', 'amount'],
      [{ prefix: 'merchant', fields: ['id', 'name'], computed: [label, city] }],
      'links',
      [{ name: 'own', from: ['amount'], compute: (amount: string) => `=${amount}` }],
    );
    const answer = answerOf(
      ['id', 'amount', 'merchant__id', 'merchant__name'],
      ['7', '-1800', '851005', 'DEMO'],
      ['8', '5', null, null],
    );
    expect(withLabel(answer)).toEqual([
      {
        id: '7',
        amount: '-1800',
        own: '=-1800',
        links: { merchant: { id: '851005', name: 'DEMO', label: '851005:DEMO' } },
      },
      { id: '8', amount: '5', own: '=5', links: { merchant: null } },
    ]);
    expect(() =>
      rowReader(
        ['id'],
        [{ prefix: 'm', fields: ['id'], computed: [{ name: 'x"', from: ['id'], compute: String }] }],
        'links',
      ),
    ).toThrow(/not a column name/);
  });

  it('refuses a name that is no column name (the reader is compiled from them)', () => {
    expect(() => rowReader(['id"]; x'], [], 'links')).toThrow(/not a column name/);
    expect(() => rowReader(['id'], [{ prefix: 'm', fields: ['a b'] }], 'links')).toThrow(/not a column name/);
  });
});
