// The fallback side of the executor's comparisons (decisions.md 42). graphql-jit is the one executor
// and graphql-js its fallback, for what jit cannot compile: while `onFallback` runs, graphql-jit's
// compileQuery refuses every document, so a service meeting a document for the first time runs it on
// graphql-js, and keeps doing so (a document's plan is made once). A test file installs the switch with
//   vi.mock('graphql-jit', async (original) => (await import('./support/jitFallback.js')).switchable(await original()));
// and sends to its fallback service only inside onFallback: each of its documents runs on graphql-js.
import { GraphQLError } from 'graphql';
import type * as GraphqlJit from 'graphql-jit';

const refusing = { now: false };

/** graphql-jit, its compileQuery refusing while onFallback runs. */
export function switchable(jit: typeof GraphqlJit): typeof GraphqlJit {
  const compileQuery: typeof jit.compileQuery = (...args) =>
    refusing.now
      ? { errors: [new GraphQLError('refused: this service runs on the fallback')] }
      : jit.compileQuery(...args);
  return { ...jit, compileQuery };
}

/** Runs `send` (to the fallback service: one request, its answer read) with graphql-jit refusing what it would compile. */
export async function onFallback<T>(send: () => Promise<T>): Promise<T> {
  refusing.now = true;
  try {
    return await send();
  } finally {
    refusing.now = false;
  }
}
