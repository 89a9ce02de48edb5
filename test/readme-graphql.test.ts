// The GraphQL examples of the README and of docs/integrating.md run as written, on a fresh demo
// database, read from their text: the walk of docs/integrating.md ("A walk through the graph", between
// its graphql-walk markers) operation by operation, each as the key its block names in the comment above it (a demo key, or a secret an
// earlier answer gave, written as the path to it: createApiKey.secret), with the variables of the json
// block that follows it (<now - N> and <now + N> being Unix seconds N away from now, <a.b.c - N> N
// from the number at that path of the latest answer that has one), after the
// README's examples of "Try it" ran, as a reader runs them. Every step must answer without an error
// and with every root field set, and every id written in a step must be one an earlier answer gave, so
// the ids the walk writes are the ones a fresh demo database gives. Then the README's GraphQL curl example.
import { type ASTNode, Kind, type OperationDefinitionNode, parse, visit } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_KEYS } from '../src/fixtures/demo.js';
import { useSeededService } from './support/fixtures.js';
import {
  type FencedBlock,
  fencedBlocks,
  readDoc,
  readmeSection,
  readmeShellBlock,
  runReadmeShell,
} from './support/readme.js';

const fixture = useSeededService();

interface Step {
  /** The operation's own text, as a reader pastes it into Sandbox. */
  text: string;
  name: string;
  /** What the block's comment says to call as: a demo key, or the path to a secret in an earlier answer. */
  as: string;
  /** The json block of its variables, read when the step runs (it may name earlier answers). */
  variables?: FencedBlock;
  /** Every id the operation writes literally (arguments and input fields named id or ...Id). */
  literalIds: string[];
}

/**
 * The variables a json block gives: <now - N> and <now + N> read as Unix seconds, <a.b.c - N> and
 * <a.b.c + N> as the number at that path of the latest earlier answer that has one, moved by N.
 */
function variablesOf(
  block: FencedBlock,
  nowSeconds: number,
  answers: readonly unknown[] = [],
): Record<string, unknown> {
  const text = block.body.replace(
    /<([A-Za-z][\w.]*)\s*([+-])\s*(\d+)>/g,
    (_match, name: string, sign: string, seconds: string) => {
      const base = name === 'now' ? nowSeconds : fromAnswers(answers, name);
      if (typeof base !== 'number') throw new Error(`no earlier answer gave a number at ${name}`);
      return String(sign === '+' ? base + Number(seconds) : base - Number(seconds));
    },
  );
  return JSON.parse(text) as Record<string, unknown>;
}

function literalIdsOf(operation: ASTNode): string[] {
  const ids: string[] = [];
  const take = (name: string, value: ASTNode) => {
    if (!/^id$|Id$/.test(name)) return;
    if (value.kind === Kind.STRING || value.kind === Kind.INT) ids.push(value.value);
  };
  visit(operation, {
    Argument: (node) => take(node.name.value, node.value),
    ObjectField: (node) => take(node.name.value, node.value),
  });
  return ids;
}

/** The walk's steps: each operation of each graphql block, with its block's key and variables. */
function walkSteps(section: string): Step[] {
  const blocks = fencedBlocks(section);
  const steps: Step[] = [];
  blocks.forEach((block, index) => {
    if (block.language !== 'graphql') return;
    const as = /^as:\s*(\S+)$/.exec(block.note ?? '')?.[1];
    if (!as) throw new Error(`a graphql block of the walk has no <!-- as: KEY --> comment above it:\n${block.body}`);
    const next = blocks[index + 1];
    const variables = next?.language === 'json' ? next : undefined;
    const document = parse(block.body);
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) throw new Error('the walk holds operations only');
      const operation = definition as OperationDefinitionNode;
      const usesVariables = (operation.variableDefinitions ?? []).length > 0;
      if (usesVariables && !variables)
        throw new Error('an operation with variables needs a json block after its block');
      steps.push({
        text: block.body.slice(operation.loc!.start, operation.loc!.end),
        name: `${operation.operation} ${operation.name ? `${operation.name.value} ` : ''}${operation.selectionSet.selections
          .map((selection) => (selection.kind === Kind.FIELD ? selection.name.value : '...'))
          .join(', ')}`,
        as,
        ...(usesVariables ? { variables } : {}),
        literalIds: literalIdsOf(operation),
      });
    }
  });
  return steps;
}

/** Every value of a property named `id` in `value`. */
function answeredIds(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) answeredIds(item, into);
  else if (value && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) {
      if (name === 'id' && typeof item === 'string') into.add(item);
      else answeredIds(item, into);
    }
  }
  return into;
}

/** The value at `path` (a.b.c) of the latest answer that has one. */
function fromAnswers(answers: readonly unknown[], path: string): unknown {
  for (const answer of [...answers].reverse()) {
    const value = path.split('.').reduce<any>((node, name) => node?.[name], answer);
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}

const DEMO_KEY_NAMES: readonly string[] = DEMO_KEYS.map(({ key }) => key);

describe('the README and docs/integrating.md', () => {
  it("GraphQL walk runs as written, every step as the key it names, after the README's 'Try it' examples", async () => {
    const examples = await runReadmeShell(readmeShellBlock('readme-examples'), fixture.service.baseUrl);
    expect(examples.code, examples.stderr).toBe(0);

    const steps = walkSteps(readmeSection('graphql-walk', readDoc('docs/integrating.md')));
    expect(steps.length).toBeGreaterThanOrEqual(12);
    const answers: unknown[] = [];
    for (const step of steps) {
      const key = step.as.includes('.') ? fromAnswers(answers, step.as) : step.as;
      if (!step.as.includes('.')) expect(DEMO_KEY_NAMES, `${step.name}: not a demo key`).toContain(step.as);
      expect(typeof key, `${step.name}: no earlier answer gave ${step.as}`).toBe('string');
      const known = answeredIds(answers, new Set());
      for (const id of step.literalIds) {
        expect(known.has(id), `${step.name}: id "${id}" is not one an earlier answer gave`).toBe(true);
      }
      const variables = step.variables && variablesOf(step.variables, Math.floor(Date.now() / 1000), answers);
      const { status, body } = await fixture.service.graphql(step.text, { 'x-api-key': key as string }, variables);
      expect(body.errors, `${step.name}: ${JSON.stringify(body.errors)}`).toBeUndefined();
      expect(status, step.name).toBe(200);
      for (const [field, value] of Object.entries(body.data)) {
        expect(value, `${step.name}: ${field} is null`).not.toBeNull();
      }
      answers.push(body.data);
    }
    // The walk pays the order off with its retail key: its last look at the order says so, the device
    // still secured while the payoff's reversal window is open (completing, decisions.md 44).
    const order = fromAnswers(answers, 'financeOrder') as { remainingBalance: string; secureStatus: string };
    expect(order).toMatchObject({ remainingBalance: '0.00', secureStatus: 'ACTIVE_AND_SECURED' });
    // Then it moves Demo Retail's sandbox clock to an hour before the demo order's lockAt: the order is
    // still secured, its options are what the walk says, and the reset puts the partner on real time.
    const demoOrder = fromAnswers(answers, 'customer.financeOrder') as { lockAt: number; secureStatus: string };
    const clock = fromAnswers(answers, 'setSandboxClock') as { now: number; realNow: number };
    expect(clock.now - (demoOrder.lockAt - 3600)).toBeGreaterThanOrEqual(0);
    expect(clock.now - (demoOrder.lockAt - 3600)).toBeLessThan(60);
    expect(demoOrder).toMatchObject({
      secureStatus: 'ACTIVE_AND_SECURED',
      repayment: {
        minimumPaymentAmount: '0.60',
        options: [
          { daysPaid: 7, amount: '4.20', lockAt: demoOrder.lockAt + 7 * 86_400 },
          { daysPaid: 30, amount: '18.00', lockAt: demoOrder.lockAt + 30 * 86_400 },
        ],
        daysBoughtBy: 6,
      },
    });
    const reset = fromAnswers(answers, 'resetSandboxClock') as { now: number; realNow: number };
    expect(reset.now).toBe(reset.realNow);
  });

  it("README's GraphQL curl example answers the partners without an error", async () => {
    const run = await runReadmeShell(readmeShellBlock('readme-graphql-curl'), fixture.service.baseUrl);
    expect(run.code, run.stderr).toBe(0);
    const body = JSON.parse(run.stdout);
    expect(body.errors).toBeUndefined();
    expect(body.data.partners.map((partner: { name: string }) => partner.name)).toEqual(
      expect.arrayContaining(['Demo Retail', 'Other Retail']),
    );
  });
});

describe("docs/integrating.md's repayment options", () => {
  it('the curl example answers the 7-day and 30-day options of demo order 4000004', async () => {
    const block = readmeShellBlock('repayment-options-curl', readDoc('docs/integrating.md'));
    const run = await runReadmeShell(block, fixture.service.baseUrl);
    expect(run.code, run.stderr).toBe(0);
    const { data } = JSON.parse(run.stdout);
    expect(data).toMatchObject({ deviceTag: 'DTSTBBB', financeOrderId: 4000004, currency: 'USD' });
    expect(data.options.map((option: { daysPaid: number }) => option.daysPaid)).toEqual([7, 30]);
  });
});

describe('the walk reader', () => {
  it('turns <now - N> and <now + N> into Unix seconds', () => {
    const block = { language: 'json', body: '{ "start": <now - 86400>, "end": <now + 60> }\n', note: null };
    expect(variablesOf(block, 1_000_000)).toEqual({ start: 913_600, end: 1_000_060 });
  });

  it('turns <a.b.c - N> into the number at that path of the latest answer that has one, moved by N', () => {
    const block = { language: 'json', body: '{ "now": <customer.financeOrder.lockAt - 3600> }\n', note: null };
    const answers = [{ customer: { financeOrder: { lockAt: 5000 } } }, { partner: { id: '1' } }];
    expect(variablesOf(block, 0, answers)).toEqual({ now: 1400 });
    expect(() => variablesOf(block, 0, [{ customer: null }])).toThrow(/no earlier answer/);
  });

  it('refuses a graphql block that names no key, and an operation with variables but no json block', () => {
    expect(() => walkSteps('```graphql\n{ viewer { kind } }\n```\n')).toThrow(/no <!-- as: KEY -->/);
    expect(() =>
      walkSteps('<!-- as: demo-operator-key -->\n```graphql\nquery Q($a: ID!) { partner(id: $a) { id } }\n```\n'),
    ).toThrow(/needs a json block/);
  });

  it('finds the literal ids of a step', () => {
    const [step] = walkSteps(
      '<!-- as: demo-operator-key -->\n```graphql\nmutation { createClerk(input: { partnerId: "3", name: "A", phoneNumber: "1", email: "a@b" }) { id } }\n```\n',
    );
    expect(step!.literalIds).toEqual(['3']);
  });
});
