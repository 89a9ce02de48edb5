// npm run openapi: openapi.json, the document GET /openapi.json serves, built from the route table
// with the golden files of test/golden/ as they are now for its examples, and the demo vendor's request
// schema as the notification body. They are read here, at build time, and written into openapi.json
// only: the service carries no test data.
import { writeFileSync } from 'node:fs';
import { DEMO_VENDOR_SCHEMA } from '../fixtures/vendorSchemas.js';
import { openApiFileText } from '../rest/openapi.js';
import { readArgs, runCommand } from './run.js';

const GOLDEN_DIR = new URL('../../test/golden/', import.meta.url).pathname;
const OPENAPI_FILE = new URL('../../openapi.json', import.meta.url).pathname;

await runCommand(
  'usage: npm run openapi',
  () => readArgs({}),
  async () => {
    writeFileSync(OPENAPI_FILE, openApiFileText(GOLDEN_DIR, DEMO_VENDOR_SCHEMA));
    process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
  },
);
