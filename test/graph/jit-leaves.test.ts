// graphql-jit's leaf checks as this project patches them (patches/graphql-jit+0.8.9.patch, applied by npm
// ci's postinstall; docs/decisions.md 47): each leaf a function of its own that builds its error's
// locations and path only when the field fails. The compiled code must call no unpatched check, and
// every leaf's answer and error (a null non-null field, an Error, a value its scalar refuses, inside
// nested lists) must be what graphql-js answers.
import { makeExecutableSchema } from '@graphql-tools/schema';
import { execute, type GraphQLError, type OperationDefinitionNode, parse } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/kernel/logger.js';
import type { Context } from '../../src/pipeline/context.js';
import { createJitExecutor } from '../../src/pipeline/graphqlExecutor.js';

const schema = makeExecutableSchema({
  typeDefs: `
    enum Kind { CASH, FINANCE }
    type Query { shelves: [Shelf!], shelf: Shelf }
    type Shelf { name: String!, items: [Item] }
    type Item { id: ID!, count: Int, label: String!, kind: Kind, flag: Boolean! }
  `,
  resolvers: {
    Kind: { CASH: 'cash', FINANCE: 'finance' },
    Query: {
      shelves: () => [
        {
          name: 'first',
          items: [
            // Every leaf answered as its scalar says: an ID from a number, an enum from its internal value.
            { id: 7, count: 3, label: 'seven', kind: 'cash', flag: true },
            // A nullable Int that is an Error, and one its scalar refuses.
            { id: '8', count: new Error('the count could not be read'), label: 'eight', kind: 'finance', flag: false },
            { id: '9', count: 'many', label: 'nine', kind: 'cash', flag: true },
          ],
        },
        {
          name: 'second',
          items: [
            // A non-null String that is null: the item (a nullable list entry) becomes null.
            { id: '10', count: 1, label: null, kind: 'cash', flag: true },
            // A non-null Boolean that is an Error, and an enum value that is none of the enum's.
            { id: '11', count: 2, label: 'eleven', kind: 'credit', flag: new Error('no flag') },
            // A non-null ID its scalar refuses.
            { id: { not: 'an id' }, count: 2, label: 'twelve', kind: 'cash', flag: true },
          ],
        },
      ],
      shelf: () => ({ name: null, items: [] }),
    },
  },
});

const QUERY = `query Leaves {
  shelves { name items { id count label kind flag } }
  shelf { name }
}`;

/** An answer's errors as plain values, in a stable order (the executors may push them in different orders). */
const errorsOf = (errors: readonly GraphQLError[] | undefined) =>
  (errors ?? [])
    .map((error) => ({ message: error.message, path: error.path, locations: error.locations }))
    .sort((a, b) => JSON.stringify(a.path).localeCompare(JSON.stringify(b.path)));

describe("graphql-jit's leaf checks, patched (decisions.md 47)", () => {
  it('compile each leaf to a function of its own: no call of the unpatched runtime checks', () => {
    const compiled = compileQuery(schema, parse(QUERY), undefined, { debug: true } as never);
    if (!isCompiledQuery(compiled)) throw new Error('the query did not compile');
    const code = (compiled as unknown as { __DO_NOT_USE_THIS_OR_YOU_WILL_BE_FIRED_compilation: string })
      .__DO_NOT_USE_THIS_OR_YOU_WILL_BE_FIRED_compilation;
    expect(code).not.toMatch(/checkNonNullLeaf|checkNullableLeaf/);
    // One per leaf of the query: name, id, count, label, kind, flag and the single shelf's name.
    expect(code.match(/function \w+Leaf\(/g)).toHaveLength(7);
  });

  it("answer every leaf and every leaf's error (message, path, locations) as graphql-js does, in nested lists", async () => {
    const executor = createJitExecutor(schema, createLogger('warn'));
    const document = parse(QUERY);
    const jit = await executor.execute({
      document,
      operation: document.definitions[0] as OperationDefinitionNode,
      operationName: undefined,
      variables: {},
      contextValue: {} as Context,
    });
    expect(executor.stats.jitExecutions).toBe(1);
    const graphqlJs = await execute({ schema, document });

    expect(jit.data).toEqual(graphqlJs.data);
    expect(jit.data).toEqual({
      shelves: [
        {
          name: 'first',
          items: [
            { id: '7', count: 3, label: 'seven', kind: 'CASH', flag: true },
            { id: '8', count: null, label: 'eight', kind: 'FINANCE', flag: false },
            { id: '9', count: null, label: 'nine', kind: 'CASH', flag: true },
          ],
        },
        { name: 'second', items: [null, null, null] },
      ],
      shelf: null,
    });
    expect(errorsOf(jit.errors)).toEqual(errorsOf(graphqlJs.errors));
    expect(errorsOf(jit.errors).map(({ message, path }) => [path, message])).toEqual([
      [['shelf', 'name'], 'Cannot return null for non-nullable field Shelf.name.'],
      [['shelves', 0, 'items', 1, 'count'], 'the count could not be read'],
      [['shelves', 0, 'items', 2, 'count'], 'Int cannot represent non-integer value: "many"'],
      [['shelves', 1, 'items', 0, 'label'], 'Cannot return null for non-nullable field Item.label.'],
      [['shelves', 1, 'items', 1, 'flag'], 'no flag'],
      [['shelves', 1, 'items', 1, 'kind'], 'Enum "Kind" cannot represent value: "credit"'],
      [['shelves', 1, 'items', 2, 'id'], 'ID cannot represent value: { not: "an id" }'],
    ]);
  });
});
