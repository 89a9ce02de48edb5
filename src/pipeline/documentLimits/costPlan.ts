// The arithmetic of a cost's plan (operationCost.ts compileOperationCost): counts known at once, and
// counts a request's variables decide (the sizes its `first` variables ask for), left open as steps run
// per request in the order the measure made them, with the same saturating arithmetic, so a plan gives
// exactly what a measure with the variables in hand gives.
import { saturatingAdd, saturatingMultiply } from './analysisBudget.js';

/** A size asked for by the slicing argument: within [0, max] when an integer, else max. */
export const sizeWithin = (asked: unknown, max: number) =>
  typeof asked === 'number' && Number.isInteger(asked) ? Math.min(max, Math.max(0, asked)) : max;

/** A count the request's variables decide: its slot in the plan's steps. */
export class Open {
  constructor(readonly slot: number) {}
}

/** A count: known, or open until the request's variables are read. */
export type Count = number | Open;

/** One step of a plan, run in order: a size from a variable, or saturating arithmetic on earlier counts. */
export type Step =
  | { op: 'size'; variable: string; max: number; absent: number }
  | { op: 'add' | 'multiply' | 'max'; a: Count; b: Count };

/**
 * The arithmetic of a measure: on known counts it computes at once, exactly as a measure with the
 * variables in hand; a count left open becomes a step of the plan, run per request in the same order.
 */
export class Counts {
  readonly steps: Step[] = [];

  private open(step: Step): Open {
    this.steps.push(step);
    return new Open(this.steps.length - 1);
  }

  add(a: Count, b: Count): Count {
    return typeof a === 'number' && typeof b === 'number' ? saturatingAdd(a, b) : this.open({ op: 'add', a, b });
  }

  multiply(a: Count, b: Count): Count {
    return typeof a === 'number' && typeof b === 'number'
      ? saturatingMultiply(a, b)
      : this.open({ op: 'multiply', a, b });
  }

  max(a: Count, b: Count): Count {
    return typeof a === 'number' && typeof b === 'number' ? Math.max(a, b) : this.open({ op: 'max', a, b });
  }

  /** The size `variable` asks for (up to max), or `absent` when the request does not give it. */
  size(variable: string, max: number, absent: number): Count {
    return this.open({ op: 'size', variable, max, absent });
  }
}

/** The cost a 'sized' plan gives with these variables: each step once, in order (no walk of the document). */
export function costWith(
  plan: { readonly steps: readonly Step[]; readonly cost: Open },
  variables: Readonly<Record<string, unknown>>,
): number {
  const values = new Array<number>(plan.steps.length);
  const countOf = (count: Count) => (typeof count === 'number' ? count : values[count.slot]!);
  for (let slot = 0; slot < plan.steps.length; slot++) {
    const step = plan.steps[slot]!;
    switch (step.op) {
      case 'size':
        values[slot] = step.variable in variables ? sizeWithin(variables[step.variable], step.max) : step.absent;
        break;
      case 'add':
        values[slot] = saturatingAdd(countOf(step.a), countOf(step.b));
        break;
      case 'multiply':
        values[slot] = saturatingMultiply(countOf(step.a), countOf(step.b));
        break;
      case 'max':
        values[slot] = Math.max(countOf(step.a), countOf(step.b));
        break;
    }
  }
  return countOf(plan.cost);
}
