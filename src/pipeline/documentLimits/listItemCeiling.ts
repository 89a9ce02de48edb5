// The backstop behind the cost estimate: however an operation was admitted, its execution stops once
// its lists have resolved more than GRAPHQL_MAX_LIST_ITEMS items, or when the process's heap is nearly
// full, and the whole answer is replaced by one error (RESPONSE_TOO_LARGE, or SERVICE_UNAVAILABLE for
// memory), so a mistaken estimate is an error answer, never a process that runs out of memory. Items
// are counted where lists are returned (every list field's resolver is wrapped once, at start), not per
// object: the wrapper costs one call per list, and depth and alias limits bound what hangs off each item.

import { getHeapStatistics } from 'node:v8';
import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import {
  defaultFieldResolver,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  getNullableType,
  isListType,
  isObjectType,
} from 'graphql';
import { AppError, HTTP_STATUS } from '../../kernel/errors.js';
import type { Context } from '../context.js';

interface HeapReading {
  used: number;
  limit: number;
}

/** The share of the heap limit past which no further list is resolved. */
export const HEAP_SHARE = 0.85;
/** How often (in list items) the heap is read: reading it is cheap, but not free. */
const HEAP_CHECK_EVERY = 1000;

const readHeap = (): HeapReading => {
  const heap = getHeapStatistics();
  return { used: heap.used_heap_size, limit: heap.heap_size_limit };
};

/** One execution's count of list items, and why it stopped if it did. */
export class ListItemBudget {
  private items = 0;
  stopped: AppError | undefined;

  constructor(
    private readonly ceiling: number,
    private readonly heap: () => HeapReading = readHeap,
  ) {}

  /** Counts a resolved list; throws (and remembers) once past the ceiling or short of memory. */
  count(length: number): void {
    if (this.stopped) throw this.stopped;
    const before = this.items;
    this.items += length;
    if (this.items > this.ceiling) {
      this.stopped = new AppError(
        'RESPONSE_TOO_LARGE',
        `the answer would hold more than ${this.ceiling} list items (GRAPHQL_MAX_LIST_ITEMS); ask for smaller pages (first) or fewer lists`,
      );
      throw this.stopped;
    }
    if (
      Math.floor(before / HEAP_CHECK_EVERY) !== Math.floor(this.items / HEAP_CHECK_EVERY) ||
      length >= HEAP_CHECK_EVERY
    ) {
      const { used, limit } = this.heap();
      if (used > limit * HEAP_SHARE) {
        const message = 'the service is short of memory for this answer; retry shortly';
        this.stopped = new AppError('SERVICE_UNAVAILABLE', message);
        throw this.stopped;
      }
    }
  }
}

const budgets = new WeakMap<Context, ListItemBudget>();

function counted(context: Context, value: unknown): unknown {
  if (Array.isArray(value)) budgets.get(context)?.count(value.length);
  return value;
}

/** Wraps every list field's resolver of `schema` (in place) to count its items against the execution's budget. */
export function countListItems(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!isListType(getNullableType(field.type))) continue;
      const resolve: GraphQLFieldResolver<unknown, Context> = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => {
        const value = resolve(source, args, context, info);
        return value instanceof Promise
          ? value.then((resolved) => counted(context, resolved))
          : counted(context, value);
      };
    }
  }
  return schema;
}

/** A fresh budget for every execution (the REST shim runs several, one per page, on one context). */
export function listItemCeilingPlugin(ceiling: number, heap?: () => HeapReading): ApolloServerPlugin<Context> {
  // One set of hooks for every request: they keep nothing of their own, the budget hangs on the context.
  const hooks: GraphQLRequestListener<Context> = {
    async executionDidStart({ contextValue }) {
      budgets.set(contextValue, new ListItemBudget(ceiling, heap));
    },
    async willSendResponse({ contextValue, response }) {
      const stopped = budgets.get(contextValue)?.stopped;
      if (!stopped || response.body.kind !== 'single') return;
      // The partial answer is dropped whole: the one error says why, and its memory is freed.
      response.body.singleResult = { errors: [{ message: stopped.message, extensions: { code: stopped.code } }] };
      response.http.status = HTTP_STATUS[stopped.code];
    },
  };
  return {
    async requestDidStart() {
      return hooks;
    },
  };
}
