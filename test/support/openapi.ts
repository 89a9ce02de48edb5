// The OpenAPI document as the repo holds it (openapi.json, which npm run openapi writes and the service
// serves), for the suites that validate answers against it.
import { readFileSync } from 'node:fs';

export const OPENAPI_FILE = new URL('../../openapi.json', import.meta.url).pathname;

/** What the suites read of the document. */
export interface OpenApiDocument {
  tags: Array<{ name: string; description: string }>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
  paths: Record<string, Record<string, unknown>>;
}

export const openApiDocument = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as OpenApiDocument;
