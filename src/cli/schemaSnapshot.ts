// npm run schema:snapshot: test/schema-snapshot.graphql, the schema as published, which
// test/graph/schema-snapshot.test.ts compares with the current one (docs/versioning.md: a change of the
// schema updates the snapshot in the same commit; a breaking one also adds a CHANGELOG.md line).
import { writeFileSync } from 'node:fs';
import { publishedSchemaText } from '../pipeline/schema.js';
import { readArgs, runCommand } from './run.js';

const SNAPSHOT_FILE = new URL('../../test/schema-snapshot.graphql', import.meta.url).pathname;

await runCommand(
  'usage: npm run schema:snapshot',
  () => readArgs({}),
  async () => {
    writeFileSync(SNAPSHOT_FILE, publishedSchemaText());
    process.stdout.write(`wrote ${SNAPSHOT_FILE}\n`);
  },
);
