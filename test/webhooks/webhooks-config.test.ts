// The webhook worker's settings an operator gives (docs/operating.md): read into the worker's
// settings when valid, and a start refused with the variable named when not.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/kernel/config.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const load = (env: Record<string, string>) => {
  const dir = mkdtempSync(join(tmpdir(), 'dfs-webhook-config-'));
  dirs.push(dir);
  return loadConfig({ DATA_DIR: dir, ...env });
};

describe('the webhook worker settings', () => {
  it('reads the concurrency, the under-load limit and the own connections; absent ones stay unset', () => {
    expect(load({}).webhookDelivery).toEqual({});
    expect(
      load({
        WEBHOOK_MAX_CONCURRENT: '64',
        WEBHOOK_MAX_PER_ENDPOINT: '16',
        WEBHOOK_MAX_CONCURRENT_UNDER_LOAD: '4',
        WEBHOOK_DATABASE_CONNECTIONS: '0',
        WEBHOOK_POLL_MS: '60000',
      }).webhookDelivery,
    ).toEqual({
      maxConcurrent: 64,
      maxPerEndpoint: 16,
      maxConcurrentUnderLoad: 4,
      databaseConnections: 0,
      pollMs: 60_000,
    });
    // The per-endpoint and under-load limits are checked against the default total (16) when it is unset.
    expect(load({ WEBHOOK_MAX_PER_ENDPOINT: '16' }).webhookDelivery).toEqual({ maxPerEndpoint: 16 });
  });

  it.each([
    [{ WEBHOOK_MAX_CONCURRENT: '0' }, 'WEBHOOK_MAX_CONCURRENT', 'between 1 and 1000'],
    [{ WEBHOOK_MAX_CONCURRENT: 'lots' }, 'WEBHOOK_MAX_CONCURRENT', 'whole number'],
    [{ WEBHOOK_MAX_PER_ENDPOINT: '0' }, 'WEBHOOK_MAX_PER_ENDPOINT', 'between 1 and 1000'],
    [{ WEBHOOK_MAX_PER_ENDPOINT: '17' }, 'WEBHOOK_MAX_PER_ENDPOINT', 'at most WEBHOOK_MAX_CONCURRENT (16)'],
    [
      { WEBHOOK_MAX_CONCURRENT: '8', WEBHOOK_MAX_PER_ENDPOINT: '9' },
      'WEBHOOK_MAX_PER_ENDPOINT',
      'at most WEBHOOK_MAX_CONCURRENT (8)',
    ],
    [
      { WEBHOOK_MAX_CONCURRENT: '8', WEBHOOK_MAX_CONCURRENT_UNDER_LOAD: '12' },
      'WEBHOOK_MAX_CONCURRENT_UNDER_LOAD',
      'at most WEBHOOK_MAX_CONCURRENT (8)',
    ],
    [{ WEBHOOK_MAX_CONCURRENT_UNDER_LOAD: '1.5' }, 'WEBHOOK_MAX_CONCURRENT_UNDER_LOAD', 'whole number'],
    [{ WEBHOOK_DATABASE_CONNECTIONS: '101' }, 'WEBHOOK_DATABASE_CONNECTIONS', 'between 0 and 100'],
    [{ WEBHOOK_DATABASE_CONNECTIONS: '-1' }, 'WEBHOOK_DATABASE_CONNECTIONS', 'whole number'],
  ])('refuses %j, naming %s', (env, variable, problem) => {
    let error: unknown;
    try {
      load(env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as ConfigError).message).toContain(problem);
    expect((error as ConfigError).message.startsWith(variable)).toBe(true);
  });
});
