// The graph's breaking-change check (docs/versioning.md, "Changes to the schema"): the schema as the
// service builds it is compared with the published snapshot, test/schema-snapshot.graphql. A breaking
// change (graphql-js findBreakingChanges: a field, type, argument or enum value removed, a type
// changed, a new required argument...) fails until the snapshot is written again in the same commit,
// with a CHANGELOG.md line; any other difference fails too, so the snapshot is always the schema.
import { readFileSync } from 'node:fs';
import { findBreakingChanges, findDangerousChanges, buildSchema as schemaFromSdl } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema, publishedSchemaText } from '../../src/pipeline/schema.js';

const SNAPSHOT_FILE = new URL('../schema-snapshot.graphql', import.meta.url);
const UPDATE = 'npm run schema:snapshot';

describe('the schema against its published snapshot', () => {
  const snapshot = readFileSync(SNAPSHOT_FILE, 'utf8');

  it('breaks nothing the snapshot promises (a deliberate break: update the snapshot and add a CHANGELOG.md line)', () => {
    const breaking = findBreakingChanges(schemaFromSdl(snapshot), buildSchema());
    expect(
      breaking.map((change) => `${change.type}: ${change.description}`),
      `breaking changes against test/schema-snapshot.graphql; if deliberate, run ${UPDATE} and list them in CHANGELOG.md`,
    ).toEqual([]);
  });

  it('adds no enum value or argument default unseen (a client that switches on an enum breaks: update the snapshot and add a CHANGELOG.md line)', () => {
    // graphql-js calls these dangerous rather than breaking; a new FinanceOrderStatus (WRITTEN_OFF,
    // RETURNED: decisions.md 44) is one. They are held to the break's rule (docs/versioning.md).
    const dangerous = findDangerousChanges(schemaFromSdl(snapshot), buildSchema());
    expect(
      dangerous.map((change) => `${change.type}: ${change.description}`),
      `dangerous changes against test/schema-snapshot.graphql; if deliberate, run ${UPDATE} and list them in CHANGELOG.md under Changed`,
    ).toEqual([]);
  });

  it('is the current schema exactly (every change of the schema updates the snapshot in the same commit)', () => {
    expect(publishedSchemaText() === snapshot, `test/schema-snapshot.graphql is stale: run ${UPDATE}`).toBe(true);
  });

  it('would catch a break: the check itself sees a field removed and a nullable field made required', () => {
    const before = schemaFromSdl('type Query { a: String b(x: Int): Int }');
    const after = schemaFromSdl('type Query { b(x: Int!): Int }');
    expect(findBreakingChanges(before, after).map((change) => change.type)).toEqual([
      'FIELD_REMOVED',
      'ARG_CHANGED_KIND',
    ]);
  });

  it('would catch an enum value added', () => {
    const before = schemaFromSdl('enum Status { ACTIVE LOCKED } type Query { status: Status }');
    const after = schemaFromSdl('enum Status { ACTIVE LOCKED WRITTEN_OFF } type Query { status: Status }');
    expect(findDangerousChanges(before, after).map((change) => change.type)).toEqual(['VALUE_ADDED_TO_ENUM']);
  });
});
