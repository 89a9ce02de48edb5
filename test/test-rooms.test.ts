// The suite's rooms (vitest.config.ts, decisions.md 38): each test file is put in one by what it
// imports (test/support/testFiles.ts), so that a file whose answer cannot depend on the backend runs
// once (not again on Postgres), and a file that starts processes has the time limits of process starts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import config from '../vitest.config.js';
import { classifyTestFiles } from './support/testFiles.js';

const ROOT = new URL('../', import.meta.url).pathname;

// The fixtures' texts are made at run time: this file's own text must read as none of what they say
// (an import of the repository's test support, a read of the variable, an import of the module).
const BACKEND = ['process.env.TEST', 'DATABASE', 'URL'].join('_');
const CHILD_PROCESS = ['node', 'child_process'].join(':');
/** The ways a module names another: each must be followed. */
const imports = {
  bare: (path: string) => `import '${path}';\n`,
  named: (path: string) => `import {\n  value,\n} from '${path}';\n`,
  typeOnly: (path: string) => `import type { Value } from '${path}';\n`,
  reexport: (path: string) => `export { value } from '${path}';\n`,
  dynamic: (path: string) => `const loaded = await import('${path}');\n`,
};

describe('a test file is classified by what it reaches through its imports', () => {
  const root = mkdtempSync(join(tmpdir(), 'dfs-rooms-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('src/kernel/sum.ts', 'export const sum = (a: number, b: number) => a + b;\n');
  write('src/kernel/sum.test.ts', imports.named('./sum.js'));
  write('bench/test/chart.test.ts', imports.named('../../src/kernel/sum.js'));
  write('test/support/db.ts', `export const onPostgres = Boolean(${BACKEND});\n`);
  write('test/support/run.ts', imports.named(CHILD_PROCESS));
  write('test/support/service.ts', imports.typeOnly('./types.js') + imports.reexport('./db.js'));
  write('test/support/types.ts', 'export type Value = number;\n');
  write('test/reads.test.ts', imports.named('./support/service.js'));
  write('test/starts.test.ts', imports.bare('./support/run.js') + imports.named('../src/kernel/sum.js'));
  write('test/lazy.test.ts', imports.dynamic('./support/db.js'));
  write('test/named.test.ts', '// TEST_DATABASE_URL=postgres://... names the server; this file does not read it.\n');
  // An import loop: each file of it reaches what the other reaches.
  write('test/support/a.ts', imports.bare('./b.js'));
  write('test/support/b.ts', imports.bare('./a.js') + imports.bare('./run.js') + imports.bare('./db.js'));
  write('test/loop.test.ts', imports.bare('./support/a.js'));

  it('runs once unless it reaches a read of TEST_DATABASE_URL; starts processes when it reaches node:child_process', () => {
    expect(classifyTestFiles(root)).toEqual([
      { path: 'bench/test/chart.test.ts', perBackend: false, startsProcesses: false },
      { path: 'src/kernel/sum.test.ts', perBackend: false, startsProcesses: false },
      { path: 'test/lazy.test.ts', perBackend: true, startsProcesses: false },
      { path: 'test/loop.test.ts', perBackend: true, startsProcesses: true },
      { path: 'test/named.test.ts', perBackend: false, startsProcesses: false },
      { path: 'test/reads.test.ts', perBackend: true, startsProcesses: false },
      { path: 'test/starts.test.ts', perBackend: false, startsProcesses: true },
    ]);
  });
});

describe("this repository's rooms", () => {
  const rooms = (config.test?.projects ?? []) as Array<{
    test: { name: string; include: string[]; testTimeout: number; hookTimeout: number; globalSetup?: string[] };
  }>;
  const roomOf = (path: string) =>
    rooms.filter((room) => room.test.include.includes(path)).map((room) => room.test.name);

  it('hold every test file, each in one room', () => {
    const files = classifyTestFiles(ROOT).map((file) => file.path);
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((path) => roomOf(path).length !== 1)).toEqual([]);
  });

  it('run a kernel unit test once, the golden files and the process suites on each backend', () => {
    expect(roomOf('src/kernel/money.test.ts')).toEqual(['once']);
    expect(roomOf('test/layers.test.ts')).toEqual(['once']);
    expect(roomOf('test/rest/golden.test.ts')).toEqual(['per-backend']);
    expect(roomOf('test/ops/process.test.ts')).toEqual(['per-backend-processes']);
    expect(roomOf('bench/test/bench-cpu.test.ts')).toEqual(['once-processes']);
    expect(roomOf('test/test-rooms.test.ts')).toEqual(['once']);
  });

  it('find each suite in the folder of its area (decisions.md 43): at the top of test/ only the tests of the suite and of the text', () => {
    const files = classifyTestFiles(ROOT).map((file) => file.path);
    const folderOf = (path: string) => path.split('/').slice(0, -1).join('/');
    expect(files.filter((path) => folderOf(path) === 'test')).toEqual(
      ['checkout-lock', 'child-processes', 'layers', 'readme-graphql', 'readme-links', 'test-rooms'].map(
        (name) => `test/${name}.test.ts`,
      ),
    );
    const areas = [
      'rest',
      'graph',
      'webhooks',
      'devices',
      'timeline',
      'reports',
      'ops',
      'production',
      'reliability',
      'console',
    ];
    const elsewhere = files.filter(
      (path) => folderOf(path) !== 'test' && path.startsWith('test/') && !areas.includes(folderOf(path).slice(5)),
    );
    expect(elsewhere).toEqual([]);
    expect(files.filter((path) => path.startsWith('bench/')).every((path) => folderOf(path) === 'bench/test')).toBe(
      true,
    );
    expect(files.filter((path) => path.startsWith('bench/')).length).toBeGreaterThan(0);
  });

  it('give the rooms that start processes longer limits, and the database setup only to the rooms that open one', () => {
    const room = (name: string) => rooms.find((candidate) => candidate.test.name === name)!.test;
    for (const name of ['once-processes', 'per-backend-processes']) {
      expect(room(name).testTimeout).toBeGreaterThan(room('per-backend').testTimeout);
      expect(room(name).hookTimeout).toBeGreaterThanOrEqual(room('per-backend').hookTimeout);
    }
    expect(room('once').globalSetup).toBeUndefined();
    expect(room('per-backend').globalSetup).toEqual(['test/support/database-setup.ts']);
  });
});
