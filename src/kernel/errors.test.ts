import { createRequire } from 'node:module';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { AppError, HTTP_STATUS, isDatabaseUnavailable, maskUnexpectedError, withHttpStatus } from './errors.js';

describe('AppError', () => {
  it('is a GraphQLError of the same graphql module Apollo loads (no dual-package copy)', () => {
    const apolloGraphql = createRequire(createRequire(import.meta.url).resolve('@apollo/server'))('graphql');
    expect(new AppError('FORBIDDEN', 'no')).toBeInstanceOf(apolloGraphql.GraphQLError);
  });
});

describe('withHttpStatus', () => {
  it("gives a refusal of a whole /graphql request its status from the one table, never the error's own", () => {
    const refusal = withHttpStatus(new AppError('INVALID_API_KEY', 'no', { http: { status: 200 }, parameter: 'key' }));
    const http = { status: HTTP_STATUS.INVALID_API_KEY, headers: new Map() };
    expect(refusal.extensions).toEqual({ code: 'INVALID_API_KEY', parameter: 'key', http });
    const plain = new Error('not ours');
    expect(withHttpStatus(plain)).toBe(plain);
  });
});

describe('maskUnexpectedError', () => {
  it('shows our own errors as they are', () => {
    const error = new AppError('FORBIDDEN', 'no');
    const { formatted, errorId } = maskUnexpectedError({ message: 'no', extensions: { code: 'FORBIDDEN' } }, error);
    expect(formatted).toEqual({ message: 'no', extensions: { code: 'FORBIDDEN' } });
    expect(errorId).toBeUndefined();
  });

  it('shows GraphQL request errors (the client wrote a bad query)', () => {
    const formattedIn = { message: 'Cannot query field "x"', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } };
    expect(maskUnexpectedError(formattedIn, new GraphQLError('x')).formatted).toEqual(formattedIn);
  });

  it("cuts a client's name quoted in a GraphQL request error to 64 characters", () => {
    const formattedIn = {
      message: `Unknown operation named "${'n'.repeat(10_000)}".`,
      extensions: { code: 'OPERATION_RESOLUTION_FAILURE' },
    };
    expect(maskUnexpectedError(formattedIn, new GraphQLError('x')).formatted).toEqual({
      message: `Unknown operation named "${'n'.repeat(64)}…".`,
      extensions: { code: 'OPERATION_RESOLUTION_FAILURE' },
    });
  });

  it('replaces anything else with an error id, hiding its text', () => {
    const leak = new Error('insert into "api_keys" ("key_hash") values ($1) - duplicate key demo-partner-key');
    const { formatted, errorId } = maskUnexpectedError(
      { message: leak.message, extensions: { stacktrace: ['at x'] } },
      leak,
    );
    expect(errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(formatted.extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR', errorId });
    expect(formatted.message).toBe(`internal server error (error id ${errorId})`);
    expect(JSON.stringify(formatted)).not.toMatch(/insert|api_keys|demo-partner-key|stacktrace/);
  });

  it('turns a lost database into SERVICE_UNAVAILABLE', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    const uniqueViolation = Object.assign(new Error('duplicate key'), { code: '23505' });
    // Seen when Postgres killed the connection under a transaction: knex's ROLLBACK then fails too.
    expect(
      isDatabaseUnavailable(new Error('ROLLBACK - Client has encountered a connection error and is not queryable')),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error('ROLLBACK - Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(terminated)).toBe(true);
    expect(isDatabaseUnavailable(uniqueViolation)).toBe(false);
    // A failover: the old primary demoted (read-only), no host taking writes, the server restarting.
    for (const code of ['25006', '08001', '57P02', '57P03'])
      expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code })), code).toBe(true);
    const { formatted } = maskUnexpectedError({ message: refused.message }, refused);
    expect(formatted.extensions?.code).toBe('SERVICE_UNAVAILABLE');
    expect(formatted.message).not.toContain('5432');
  });
});
