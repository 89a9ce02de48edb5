// A request's DataLoaders are built module by module, the first time a resolver reads them, and kept
// for the rest of the request (context.ts RequestLoaders).
import { describe, expect, it } from 'vitest';
import { type Context, forgetCachedReads, pageContext } from './context.js';
import type { Db } from './db/knex.js';
import { ReadAhead } from './db/readAhead.js';

/** No statement runs here: building a loader only closes over its database. */
const db = {} as Db;

const builtModules = (ctx: Context) => [...(ctx.loaders as unknown as { built: Map<string, unknown> }).built.keys()];

describe("a request's loaders", () => {
  it('are built on first read, once, and only those read', () => {
    const ctx = { db } as Context;
    forgetCachedReads(ctx);
    expect(builtModules(ctx)).toEqual([]);
    const customers = ctx.loaders.customers;
    expect(ctx.loaders.customers).toBe(customers);
    expect(customers.byKey.load).toBeTypeOf('function');
    expect(builtModules(ctx)).toEqual(['customers']);
  });

  it("build the orders' loaders on the request's own device loaders, which an order's read primes", () => {
    const ctx = { db } as Context;
    forgetCachedReads(ctx);
    const orders = ctx.loaders.financeOrders;
    // Reading the orders' loaders built the devices' for them: the request's own, not a copy of its own.
    expect(builtModules(ctx).sort()).toEqual(['devices', 'financeOrders']);
    const devices = ctx.loaders.devices;
    expect(builtModules(ctx).sort()).toEqual(['devices', 'financeOrders']);
    expect(ctx.loaders.devices).toBe(devices);
    expect(ctx.loaders.financeOrders).toBe(orders);
  });

  it('are new for every page of a list and after every mutation, never shared', () => {
    const ctx = { db } as Context;
    forgetCachedReads(ctx);
    const first = ctx.loaders.payments;
    const readAhead = new ReadAhead();
    const page = pageContext(ctx, new AbortController().signal, readAhead);
    expect(page.loaders.payments).not.toBe(first);
    expect(page.readAhead).toBe(readAhead);
    forgetCachedReads(ctx);
    expect(ctx.loaders.payments).not.toBe(first);
    expect(builtModules(ctx)).toEqual(['payments']);
  });
});
