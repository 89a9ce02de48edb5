// The console's operations (console/operations/, decisions.md 46) against the service's own checks, so
// the console can never ship a document the service refuses: one operation a file, named Console*,
// valid against the schema, and within the default document limits (tokens, depth, aliases, cost) as
// the pipeline measures them (src/pipeline/documentLimits/), whatever the variables say (the cost with
// every variable null, so each list counts at its bound).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type GraphQLSchema, Kind, type OperationDefinitionNode, parse, validate } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/kernel/limitSettings.js';
import { consoleOperationTexts } from '../../src/pages/consoleBundle.js';
import { AnalysisMeter } from '../../src/pipeline/documentLimits/analysisBudget.js';
import { createOperationShapeRule, operationShape } from '../../src/pipeline/documentLimits/graphqlLimits.js';
import { fragmentsOf, operationCost } from '../../src/pipeline/documentLimits/operationCost.js';
import { buildSchema } from '../../src/pipeline/schema.js';

const OPERATIONS = new URL('../../console/operations/', import.meta.url).pathname;
const files = readdirSync(OPERATIONS).sort();
const { maxTokens, maxDepth, maxAliases, maxCost } = DEFAULT_LIMITS.graphql;

let schema: GraphQLSchema;
beforeAll(() => {
  schema = buildSchema();
});

const textOf = (file: string) => readFileSync(join(OPERATIONS, file), 'utf8');
const operationsOf = (text: string) =>
  parse(text, { maxTokens }).definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );

describe("the console's operations", () => {
  it('are .graphql files only, the very texts the service trusts with its own (consoleOperationTexts)', () => {
    expect(files.length).toBeGreaterThanOrEqual(4);
    expect(files.filter((file) => !/^[a-z][A-Za-z0-9]*\.graphql$/.test(file))).toEqual([]);
    expect(consoleOperationTexts()).toEqual(files.map(textOf));
  });

  it('have names of their own: each Console<Something>, none twice', () => {
    const names = files.flatMap((file) => operationsOf(textOf(file)).map((operation) => operation.name?.value));
    expect(names.filter((name) => !/^Console[A-Z][A-Za-z0-9]*$/.test(name ?? ''))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });

  describe.each(files)('%s', (file) => {
    const text = textOf(file);

    it(`parses within ${maxTokens} tokens into exactly one named operation`, () => {
      // The parser the service runs stops at the limit (Apollo's parseOptions.maxTokens).
      expect(() => parse(text, { maxTokens })).not.toThrow();
      const operations = operationsOf(text);
      expect(operations).toHaveLength(1);
      expect(operations[0]!.name?.value).toMatch(/^Console[A-Z]/);
    });

    it(`is valid against the schema, at most ${maxDepth} levels deep with at most ${maxAliases} aliases`, () => {
      const document = parse(text, { maxTokens });
      // graphql-js's own rules (validate's default) and the service's shape rule, as Apollo runs them.
      expect(validate(schema, document).map((error) => error.message)).toEqual([]);
      expect(validate(schema, document, [createOperationShapeRule(DEFAULT_LIMITS.graphql)])).toEqual([]);
      const shape = operationShape(operationsOf(text)[0]!, fragmentsOf(document));
      expect(shape.depth).toBeLessThanOrEqual(maxDepth);
      expect(shape.aliases).toBeLessThanOrEqual(maxAliases);
    });

    it(`costs at most ${maxCost} with any variables (each list at its bound), measured within the analysis budget`, () => {
      const document = parse(text, { maxTokens });
      const operation = operationsOf(text)[0]!;
      // Null for every variable: a `first` given as a variable then counts at its list's bound, the most it can.
      const worst = Object.fromEntries(
        (operation.variableDefinitions ?? []).map((definition) => [definition.variable.name.value, null]),
      );
      const cost = operationCost(schema, document, operation, worst, Number.MAX_SAFE_INTEGER, new AnalysisMeter());
      expect(cost).toBeGreaterThan(0);
      expect(cost).toBeLessThanOrEqual(maxCost);
    });
  });
});
