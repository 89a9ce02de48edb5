import { describe, expect, it } from 'vitest';
import { pageOfList } from './pages.js';

const rows = ['7', '3', '9', '5'].map((id) => ({ id }));
const ids = (page: { rows: Array<{ id: string }> }) => page.rows.map((row) => row.id);

describe('pageOfList: a connection over a list read whole, in its own order', () => {
  it('pages after the row the cursor names, in the list order, and says whether rows follow', async () => {
    const first = pageOfList(rows, 2, undefined);
    expect(ids(first)).toEqual(['7', '3']);
    expect(first.hasNextPage).toBe(true);
    expect(first.previousExists).toBeNull();
    const second = pageOfList(rows, 2, '3');
    expect(ids(second)).toEqual(['9', '5']);
    expect(second.hasNextPage).toBe(false);
    expect(await second.previousExists?.()).toBe(true);
    expect(ids(pageOfList(rows, 2, '5'))).toEqual([]);
  });

  it('gives an empty page for a cursor whose row has left the list', async () => {
    const page = pageOfList(rows, 2, '4');
    expect(page).toMatchObject({ rows: [], hasNextPage: false });
    expect(await page.previousExists?.()).toBe(false);
  });
});
