// The golden files of test/golden/, for every suite that replays them: one folder per route, each
// run on its own freshly seeded database with the clock fixed at GOLDEN_NOW, its files in name order.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from './db.js';
import { startTestService, type TestService } from './service.js';

export interface GoldenRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  json?: unknown;
  body?: string;
}

export interface GoldenCase {
  about: string;
  request: GoldenRequest;
  response: { status: number; headers: Record<string, string>; body: any };
}

/** The fixed clock of every golden run: T (the demo seed's day) is 2026-06-10. */
export const GOLDEN_NOW = new Date('2026-06-10T15:30:00Z');
export const GOLDEN_DIR = new URL('../golden/', import.meta.url).pathname;

export const goldenFolders = (): string[] =>
  readdirSync(GOLDEN_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

export const goldenFiles = (folder: string): string[] =>
  readdirSync(join(GOLDEN_DIR, folder))
    .filter((file) => file.endsWith('.json'))
    .sort();

export const readGolden = (folder: string, file: string): GoldenCase =>
  JSON.parse(readFileSync(join(GOLDEN_DIR, folder, file), 'utf8')) as GoldenCase;

/**
 * Whether this run rewrites the golden files' responses (UPDATE_GOLDEN=1). Refused under CI (CI set to
 * anything but "", "0" or "false"): a CI run that rewrote its goldens would pass whatever the service
 * answered, so a changed contract would go through unseen.
 */
export function goldenUpdateRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.UPDATE_GOLDEN !== '1') return false;
  const ci = env.CI ?? '';
  if (!['', '0', 'false'].includes(ci.toLowerCase())) {
    throw new Error(
      `UPDATE_GOLDEN=1 is refused under CI=${ci}: CI checks the golden files against the service and never rewrites them; rewrite them locally and review the diff`,
    );
  }
  return true;
}

/** A golden request as fetch options: a JSON body goes with its content type. */
export function goldenInit(request: GoldenRequest): { method: string; headers: Record<string, string>; body?: string } {
  return {
    method: request.method,
    headers: { ...(request.json !== undefined ? { 'content-type': 'application/json' } : {}), ...request.headers },
    body: request.json !== undefined ? JSON.stringify(request.json) : request.body,
  };
}

/** A freshly seeded database and service at GOLDEN_NOW for one folder (beforeAll/afterAll hooks). */
export function useGoldenService(options: { logger?: Logger } = {}): { database: TestDatabase; service: TestService } {
  const fixture = {} as { database: TestDatabase; service: TestService };
  beforeAll(async () => {
    fixture.database = await createTestDatabase({ now: GOLDEN_NOW });
    fixture.service = await startTestService(fixture.database.db, { now: () => GOLDEN_NOW, ...options });
  });
  afterAll(async () => {
    await fixture.service?.close();
    await fixture.database?.destroy();
  });
  return fixture;
}
