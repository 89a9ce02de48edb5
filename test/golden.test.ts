// Golden files: for every legacy route, requests with the exact status, headers and body bytes they
// must get. The same files pass on PGlite and on Postgres, which is what "one JSON for both
// databases" means. UPDATE_GOLDEN=1 rewrites the expected responses (review the diff before commit).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEGACY_ROUTES } from '../src/rest/routes.js';
import { useSeededService } from './support/fixtures.js';

interface GoldenCase {
  about: string;
  request: { method: string; path: string; headers?: Record<string, string> };
  response: { status: number; headers: Record<string, string>; body: unknown };
}

const GOLDEN_DIR = new URL('./golden/', import.meta.url).pathname;
const UPDATE = process.env.UPDATE_GOLDEN === '1';
// Headers whose value is part of the contract; X-Request-ID is checked separately (it varies).
const PINNED_HEADERS = ['content-type', 'allow', 'cache-control'];

const goldenFiles = readdirSync(GOLDEN_DIR, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.json'))
  .sort();

const fixture = useSeededService();

describe('golden files', () => {
  it.each(goldenFiles)('%s', async (file) => {
    const path = join(GOLDEN_DIR, file);
    const golden = JSON.parse(readFileSync(path, 'utf8')) as GoldenCase;
    const response = await fixture.service.request(golden.request.path, {
      method: golden.request.method,
      headers: golden.request.headers,
    });
    const text = await response.text();
    const headers = Object.fromEntries(
      PINNED_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)!]] : [])),
    );
    if (UPDATE) {
      golden.response = { status: response.status, headers, body: JSON.parse(text) };
      writeFileSync(path, `${JSON.stringify(golden, null, 2)}\n`);
      return;
    }
    expect(response.status).toBe(golden.response.status);
    expect(headers).toEqual(golden.response.headers);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    // Byte for byte: same fields, same order, same JSON types.
    expect(text).toBe(JSON.stringify(golden.response.body));
  });
});

describe('golden coverage', () => {
  it('every legacy route has a golden success case and a golden error case', () => {
    const cases = goldenFiles.map((file) => JSON.parse(readFileSync(join(GOLDEN_DIR, file), 'utf8')) as GoldenCase);
    for (const route of LEGACY_ROUTES) {
      const forRoute = cases.filter((c) => c.request.path.split('?')[0] === route.path);
      expect(forRoute.some((c) => c.response.status === 200), `${route.path} success`).toBe(true);
      expect(forRoute.some((c) => c.response.status >= 400), `${route.path} error`).toBe(true);
    }
  });
});
