import { describe, expect, it } from 'vitest';
import { violatesUnique } from './inputs.js';

const violation = (constraint: string) => Object.assign(new Error('duplicate key'), { code: '23505', constraint });

describe('violatesUnique', () => {
  it("names the constraint as Postgres does, and as a Citus worker does (the shard's id after it)", () => {
    expect(violatesUnique(violation('idempotency_keys_pkey'), 'idempotency_keys_pkey')).toBe(true);
    expect(violatesUnique(violation('idempotency_keys_pkey_102140'), 'idempotency_keys_pkey')).toBe(true);
  });

  it("reads a Citus worker's constraint from the message when the error carries no constraint field", () => {
    const fromWorker = (constraint: string) =>
      Object.assign(new Error(`insert into ... - duplicate key value violates unique constraint "${constraint}"`), {
        code: '23505',
      });
    expect(violatesUnique(fromWorker('idempotency_keys_pkey_102140'), 'idempotency_keys_pkey')).toBe(true);
    expect(violatesUnique(fromWorker('payments_pkey_102140'), 'idempotency_keys_pkey')).toBe(false);
  });

  it('is false for another constraint, a name that only begins alike, or another error', () => {
    expect(violatesUnique(violation('payments_pkey'), 'idempotency_keys_pkey')).toBe(false);
    expect(violatesUnique(violation('idempotency_keys_pkey_old'), 'idempotency_keys_pkey')).toBe(false);
    expect(violatesUnique(violation('idempotency_keys_pkey2'), 'idempotency_keys_pkey')).toBe(false);
    const other = Object.assign(new Error('x'), { code: '23503', constraint: 'idempotency_keys_pkey' });
    expect(violatesUnique(other, 'idempotency_keys_pkey')).toBe(false);
    expect(violatesUnique(new Error('x'), 'idempotency_keys_pkey')).toBe(false);
  });
});
