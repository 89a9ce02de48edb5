// An operation's reads (context.ts OperationReads): the database chosen once, DataLoaders built module by
// module the first time a resolver reads them and kept for the rest of the operation, and a context that
// is never changed (a page of a list gets a new one); the request's child logger, made on first use.
import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/knex.js';
import { ReadAhead } from '../db/readAhead.js';
import { createLogger } from '../kernel/logger.js';
import { type Context, createContext, OperationReads, pageContext, type ServiceDeps } from './context.js';

/** No statement runs here: building a loader only closes over its database. */
const primary = { name: 'primary' } as unknown as Db;
const replica = { name: 'replica' } as unknown as Db;

const builtModules = (reads: OperationReads) => [
  ...(reads.loaders as unknown as { built: Map<string, unknown> }).built.keys(),
];
const loadersDb = (reads: OperationReads) => (reads.loaders as unknown as { db: Db }).db;

describe("an operation's loaders", () => {
  it('are built on first read, once, and only those read', () => {
    const reads = new OperationReads(primary, null);
    expect(builtModules(reads)).toEqual([]);
    const customers = reads.loaders.customers;
    expect(reads.loaders.customers).toBe(customers);
    expect(customers.byKey.load).toBeTypeOf('function');
    expect(builtModules(reads)).toEqual(['customers']);
  });

  it("build the orders' loaders on the operation's own device loaders, which an order's read primes", () => {
    const reads = new OperationReads(primary, null);
    const orders = reads.loaders.financeOrders;
    // Reading the orders' loaders built the devices' for them: the operation's own, not a copy of its own.
    expect(builtModules(reads).sort()).toEqual(['devices', 'financeOrders']);
    const devices = reads.loaders.devices;
    expect(builtModules(reads).sort()).toEqual(['devices', 'financeOrders']);
    expect(reads.loaders.devices).toBe(devices);
    expect(reads.loaders.financeOrders).toBe(orders);
  });

  it('are new for every page of a list and after every mutation, never shared', () => {
    const ctx = { primary, reads: new OperationReads(primary, null) } as Context;
    const first = ctx.reads.loaders.payments;
    const readAhead = new ReadAhead();
    const page = pageContext(ctx, new AbortController().signal, readAhead);
    expect(page).not.toBe(ctx);
    expect(page.reads.loaders.payments).not.toBe(first);
    expect(page.readAhead).toBe(readAhead);
    // The request's own context is as it was: the page changed nothing of it.
    expect(ctx.readAhead).toBeUndefined();
    expect(ctx.reads.loaders.payments).toBe(first);
    ctx.reads.forget();
    expect(ctx.reads.loaders.payments).not.toBe(first);
    expect(builtModules(ctx.reads)).toEqual(['payments']);
  });
});

describe("an operation's database", () => {
  it('is the replica for a query the request may read there, the primary for anything else', () => {
    const query = new OperationReads(primary, replica);
    expect(query.choose(true)).toBe(true);
    expect([query.db, loadersDb(query)]).toEqual([replica, replica]);
    const mutation = new OperationReads(primary, replica);
    expect(mutation.choose(false)).toBe(false);
    expect([mutation.db, loadersDb(mutation)]).toEqual([primary, primary]);
    // No replica this request may use (down, lagging, or its last write not replayed yet): the primary.
    const behind = new OperationReads(primary, null);
    expect(behind.choose(true)).toBe(false);
    expect(behind.db).toBe(primary);
  });

  it('is the primary unless chosen before the first read, and is never changed once settled', () => {
    const unchosen = new OperationReads(primary, replica);
    expect(unchosen.db).toBe(primary);
    expect(() => unchosen.choose(true)).toThrow(/settled already/);
    expect(unchosen.choose(false)).toBe(false);
    const query = new OperationReads(primary, replica);
    query.choose(true);
    expect(() => query.choose(false)).toThrow(/settled already/);
    expect(query.db).toBe(replica);
  });

  it("is settled anew by each page, whatever the request's other pages chose", () => {
    const reads = new OperationReads(primary, replica);
    reads.choose(true);
    const page = reads.fresh();
    expect(page.choose(false)).toBe(false);
    expect([reads.db, page.db]).toEqual([replica, primary]);
  });
});

describe("a request's logger", () => {
  it('is made when first read, once, and writes its lines with the request id; a page writes with the same', async () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    const child = vi.spyOn(logger, 'child');
    const deps = { db: primary, logger, now: () => new Date(), tokens: {}, unlockKeys: {} } as unknown as ServiceDeps;
    const credential = { value: undefined, expected: 'an API key', presentedAs: 'key query parameter' };
    const ctx = await createContext(deps, { credential, requestId: 'request-1' });
    expect(child).not.toHaveBeenCalled();
    ctx.logger.info('first');
    const page = pageContext(ctx, new AbortController().signal, new ReadAhead());
    expect([page.logger, ctx.logger]).toEqual([ctx.logger, ctx.logger]);
    page.logger.info('second');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map((line) => JSON.parse(line)).map(({ requestId, msg }) => ({ requestId, msg }))).toEqual([
      { requestId: 'request-1', msg: 'first' },
      { requestId: 'request-1', msg: 'second' },
    ]);
  });
});
