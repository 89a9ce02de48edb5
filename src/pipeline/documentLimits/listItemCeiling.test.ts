import { describe, expect, it } from 'vitest';
import { HEAP_SHARE, ListItemBudget } from './listItemCeiling.js';

describe('ListItemBudget', () => {
  it('counts list items and stops past the ceiling, then refuses every later list', () => {
    const budget = new ListItemBudget(10, () => ({ used: 0, limit: 100 }));
    budget.count(6);
    budget.count(4);
    expect(() => budget.count(1)).toThrow(/more than 10 list items/);
    expect(budget.stopped?.code).toBe('RESPONSE_TOO_LARGE');
    expect(() => budget.count(0)).toThrow(/more than 10 list items/);
  });

  it('stops with SERVICE_UNAVAILABLE once the heap is nearly full, read every thousand items', () => {
    let used = 0;
    const budget = new ListItemBudget(1_000_000, () => ({ used, limit: 1000 }));
    budget.count(999);
    used = 1000 * HEAP_SHARE + 1;
    budget.count(0); // no thousand crossed: the heap is not read
    expect(() => budget.count(1)).toThrow(/short of memory/);
    expect(budget.stopped?.code).toBe('SERVICE_UNAVAILABLE');
  });

  it('reads the heap for one large list at once', () => {
    const budget = new ListItemBudget(1_000_000, () => ({ used: 950, limit: 1000 }));
    expect(() => budget.count(5000)).toThrow(/short of memory/);
  });
});
