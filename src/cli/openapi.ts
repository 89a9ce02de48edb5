// npm run openapi: writes openapi.json, the repo's copy of the document GET /openapi.json serves.
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../rest/openapi.js';
import { readArgs, runCommand } from './run.js';

await runCommand(
  'usage: npm run openapi',
  () => readArgs({}),
  async () => {
    const file = new URL('../../openapi.json', import.meta.url);
    writeFileSync(file, `${JSON.stringify(openApiDocument, null, 2)}\n`);
    process.stdout.write(`wrote ${file.pathname}\n`);
  },
);
