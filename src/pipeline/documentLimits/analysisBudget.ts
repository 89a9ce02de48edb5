// The work one analysis of a GraphQL document may do: its shape at validation (graphqlLimits.ts) and
// its cost per request (operationCost.ts, introspectionCost.ts) each count one step per selection
// they measure and per item they iterate, and stop past a fixed budget. The walks are memoised (each
// selection set measured once per type and context), so their work grows with the document's size;
// the budget is the backstop that makes any mistake there a refusal in milliseconds, not a blocked
// event loop. Past it: 400 GRAPHQL_VALIDATION_FAILED, said by ANALYSIS_REFUSAL.

/**
 * Steps one analysis may take. The costliest real document is Apollo Sandbox's introspection query
 * (getIntrospectionQuery with every option): about 8,400 steps of cost and 80 of shape on this
 * schema; a REST shim operation takes under 100 of each. 100,000 steps take 15 to 40 ms.
 */
const ANALYSIS_STEP_BUDGET = 100_000;

/**
 * The most selections a document may hold once its fragment spreads are inlined (each spread counted
 * with the whole of its fragment): what an executor walks, and graphql-jit's compiler walks it again
 * for every field it collects, without remembering fragments. Sandbox's introspection query inlines
 * to 229 selections, the largest REST shim operation to 55; at 5,000 jit compiles in tens of ms.
 */
export const MAX_INLINED_SELECTIONS = 5_000;

export const ANALYSIS_REFUSAL = `the document is too complex to analyse (more than ${ANALYSIS_STEP_BUDGET} steps); send a smaller one, with fewer fragment spreads`;

export const INLINED_REFUSAL = `the document is too complex: its fragment spreads expand to more than ${MAX_INLINED_SELECTIONS} selections; spread fewer fragments`;

/** Thrown by a walk once its meter passes the budget; the caller refuses the document. */
export class AnalysisBudgetExceeded extends Error {
  constructor() {
    super(ANALYSIS_REFUSAL);
  }
}

/** Counts one analysis's steps against a budget: the walks call step(); tests read `steps`. */
export class AnalysisMeter {
  steps = 0;

  constructor(readonly budget: number = ANALYSIS_STEP_BUDGET) {}

  /** Counts `n` steps; throws AnalysisBudgetExceeded once past the budget. */
  step(n = 1): void {
    this.steps += n;
    if (this.steps > this.budget) throw new AnalysisBudgetExceeded();
  }
}

/** Addition and multiplication that stop at MAX_SAFE_INTEGER: a count past it is past every limit. */
export const saturatingAdd = (a: number, b: number) => Math.min(Number.MAX_SAFE_INTEGER, a + b);
export const saturatingMultiply = (a: number, b: number) => Math.min(Number.MAX_SAFE_INTEGER, a * b);
