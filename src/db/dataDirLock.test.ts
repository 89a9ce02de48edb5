import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUse, lockDataDir } from './dataDirLock.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'dfs-lock-'));
  dirs.push(dir);
  return join(dir, 'pglite');
};

describe('lockDataDir', () => {
  it('writes this process id beside the folder', () => {
    const dataDir = folder();
    lockDataDir(dataDir);
    expect(readFileSync(`${dataDir}.lock`, 'utf8')).toBe(`${process.pid}\n`);
  });

  it('refuses a folder whose lock names a live process, naming it', () => {
    const dataDir = folder();
    writeFileSync(`${dataDir}.lock`, '1\n'); // init: always alive
    expect(() => lockDataDir(dataDir)).toThrow(DataDirInUse);
    expect(() => lockDataDir(dataDir)).toThrow(`the embedded database in ${dataDir} is in use by process 1`);
    expect(readFileSync(`${dataDir}.lock`, 'utf8')).toBe('1\n');
  });

  it('takes over the lock of a process that is gone, or of a garbled file', () => {
    for (const stale of ['2147483646\n', 'not a pid\n']) {
      const dataDir = folder();
      writeFileSync(`${dataDir}.lock`, stale);
      lockDataDir(dataDir);
      expect(existsSync(`${dataDir}.lock`)).toBe(true);
      expect(readFileSync(`${dataDir}.lock`, 'utf8')).toBe(`${process.pid}\n`);
    }
  });
});
