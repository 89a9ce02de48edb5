// npm run openapi: the golden files' examples (src/__generated__/goldenExamples.ts) and openapi.json,
// the repo's copy of the document GET /openapi.json serves, both from test/golden/ as it is now.
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../rest/openapi.js';
import { GOLDEN_EXAMPLES_MODULE, goldenExamplesModule, readGoldenExamples } from './goldenExamples.js';
import { readArgs, runCommand } from './run.js';

const OPENAPI_FILE = new URL('../../openapi.json', import.meta.url).pathname;

const openApiText = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;

await runCommand(
  'usage: npm run openapi',
  () => readArgs({}),
  async () => {
    const goldens = readGoldenExamples();
    writeFileSync(GOLDEN_EXAMPLES_MODULE, goldenExamplesModule(goldens));
    writeFileSync(OPENAPI_FILE, openApiText(buildOpenApiDocument(goldens)));
    process.stdout.write(`wrote ${GOLDEN_EXAMPLES_MODULE} and ${OPENAPI_FILE}\n`);
  },
);
