import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const tempDir = () => mkdtempSync(join(tmpdir(), 'dfs-config-'));
const SECRET = 'x'.repeat(40);

function failure(env: Record<string, string>): ConfigError {
  try {
    loadConfig({ DATA_DIR: tempDir(), ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has working defaults: port 4000, embedded database, one-hour tokens', () => {
    const config = loadConfig({ DATA_DIR: tempDir() });
    expect(config).toMatchObject({
      port: 4000,
      host: '0.0.0.0',
      databaseUrl: null,
      production: false,
      logLevel: 'info',
      tokenTtlSeconds: 3600,
    });
  });

  it('reads every variable', () => {
    const dir = tempDir();
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://app@db:5432/financing',
      DATABASE_POOL_MAX: '25',
      DATA_DIR: dir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      TOKEN_TTL_SECONDS: '600',
      TOKEN_SIGNING_SECRET: SECRET,
    });
    expect(config).toEqual({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgres://app@db:5432/financing',
      databasePoolMax: 25,
      dataDir: dir,
      production: true,
      logLevel: 'warn',
      tokenTtlSeconds: 600,
      tokenSigningKeys: [{ id: 'default', secret: SECRET }],
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ TOKEN_TTL_SECONDS: '0' }, 'TOKEN_TTL_SECONDS'],
    [{ TOKEN_TTL_SECONDS: '1.5' }, 'TOKEN_TTL_SECONDS'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ TOKEN_SIGNING_SECRET: 'short' }, 'TOKEN_SIGNING_SECRET'],
    [{ DATABASE_POOL_MAX: '0' }, 'DATABASE_POOL_MAX'],
  ])('refuses %j, naming %s', (env, variable) => {
    const error = failure(env);
    expect(error.variable).toBe(variable);
    expect(error.message.startsWith(variable)).toBe(true);
  });

  it('reads rotating signing keys, the first signing', () => {
    const keys = loadConfig({ DATA_DIR: tempDir(), TOKEN_SIGNING_KEYS: `k2:${'b'.repeat(40)}, k1:${'a'.repeat(40)}` }).tokenSigningKeys;
    expect(keys).toEqual([{ id: 'k2', secret: 'b'.repeat(40) }, { id: 'k1', secret: 'a'.repeat(40) }]);
    for (const bad of ['nocolon', `k1:short`, `bad id:${'a'.repeat(40)}`, `k1:${'a'.repeat(40)},k1:${'b'.repeat(40)}`]) {
      expect(failure({ TOKEN_SIGNING_KEYS: bad }).variable, bad).toBe('TOKEN_SIGNING_KEYS');
    }
  });

  it('requires a signing secret and a real database in production', () => {
    expect(failure({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x' }).variable).toBe('TOKEN_SIGNING_SECRET');
    expect(failure({ NODE_ENV: 'production', TOKEN_SIGNING_SECRET: SECRET }).variable).toBe('DATABASE_URL');
  });

  it('outside production, generates the signing secret once and keeps it under DATA_DIR', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir }).tokenSigningKeys[0]!.secret;
    const second = loadConfig({ DATA_DIR: dir }).tokenSigningKeys[0]!.secret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(second).toBe(first);
    const file = join(dir, 'token-signing-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(statSync(file).mode & 0o077).toBe(0); // readable by its owner only
    expect(loadConfig({ DATA_DIR: tempDir() }).tokenSigningKeys[0]!.secret).not.toBe(first);
  });
});
