import { describe, expect, it } from 'vitest';
import { joinedRow, rowReader, sourcesOf } from './joinedRows.js';

describe('rowReader', () => {
  const read = rowReader<Record<string, unknown>>(
    ['id', 'amount'],
    [
      { prefix: 'merchant', fields: ['id', 'name'] },
      { prefix: 'payment', fields: ['id', 'received_at'] },
    ],
    'links',
  );
  const result = {
    id: '7',
    amount: '-1800',
    merchant__id: '851005',
    merchant__name: 'DEMO',
    payment__id: null,
    payment__received_at: null,
  };

  it('reads its own columns and each joined row, null where the join found none', () => {
    expect(read(result)).toEqual({
      id: '7',
      amount: '-1800',
      links: { merchant: { id: '851005', name: 'DEMO' }, payment: null },
    });
  });

  it('reads what joinedRow takes, field for field', () => {
    const merchant = joinedRow('merchant', sourcesOf('m', ['id', 'name']));
    expect((read(result).links as Record<string, unknown>).merchant).toEqual(merchant.take(result));
  });

  it('refuses a name that is no column name (the reader is compiled from them)', () => {
    expect(() => rowReader(['id"]; x'], [], 'links')).toThrow(/not a column name/);
    expect(() => rowReader(['id'], [{ prefix: 'm', fields: ['a b'] }], 'links')).toThrow(/not a column name/);
  });
});
