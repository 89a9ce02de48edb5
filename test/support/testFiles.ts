// Which room each test file belongs in (vitest.config.ts's projects, docs/decisions.md 38), read from
// what the file imports, so a new test finds its room by itself:
// - whether its answer can depend on the backend: a file that reaches a read of TEST_DATABASE_URL
//   through its imports (test/support/db.ts, or a read of its own) runs on PGlite and on Postgres; any
//   other runs once, since both runs would run the very same test;
// - whether it starts processes: a file that reaches node:child_process through its imports gets the
//   time limits of a process start through tsx on a loaded machine.
// Imports are read with a regex over the import and export statements (as test/layers.test.ts does),
// following relative paths only; a type-only import is followed too, which can only make a file run twice.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export interface TestFile {
  /** From the repository's root, e.g. test/rest/golden.test.ts. */
  path: string;
  /** Reaches TEST_DATABASE_URL: its answer may differ between PGlite and Postgres. */
  perBackend: boolean;
  /** Reaches node:child_process: it may start processes. */
  startsProcesses: boolean;
}

const IMPORTED = /(?:\bfrom|\bimport)\s*\(?\s*['"]([^'"]+)['"]/g;
const CHILD_PROCESS = /^(node:)?child_process$/;
/** A read of the variable (`process.env.X`, `env.X`, `env['X']`), not its name in a comment or a message. */
const READS_BACKEND = /\benv(?:\.TEST_DATABASE_URL\b|\[\s*['"]TEST_DATABASE_URL['"]\s*\])/;

/** The file a relative specifier names (`./x.js` is `./x.ts` in this repository), or null. */
function resolveImport(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** A file's own facts and the repository files it imports, read once. */
interface Parsed {
  readsBackend: boolean;
  importsChildProcess: boolean;
  imports: string[];
}

function parse(file: string): Parsed {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(IMPORTED)].map((match) => match[1]!);
  return {
    readsBackend: READS_BACKEND.test(text),
    importsChildProcess: specifiers.some((specifier) => CHILD_PROCESS.test(specifier)),
    imports: specifiers
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolveImport(file, specifier))
      .filter((target): target is string => target !== null),
  };
}

/** The two facts over every file `file` reaches through its imports, itself included. */
function reachOf(file: string, parsed: Map<string, Parsed>): Omit<TestFile, 'path'> {
  const reached = new Set<string>();
  const pending = [file];
  const facts = { perBackend: false, startsProcesses: false };
  while (pending.length) {
    const next = pending.pop()!;
    if (reached.has(next)) continue;
    reached.add(next);
    const own = parsed.get(next) ?? parse(next);
    parsed.set(next, own);
    facts.perBackend ||= own.readsBackend;
    facts.startsProcesses ||= own.importsChildProcess;
    pending.push(...own.imports);
  }
  return facts;
}

function testFilesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFilesUnder(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every test file under `folders` (from `root`), with its room's two facts, in path order. */
export function classifyTestFiles(root: string, folders: readonly string[] = ['src', 'test', 'bench']): TestFile[] {
  const parsed = new Map<string, Parsed>();
  return folders
    .flatMap((folder) => testFilesUnder(join(root, folder)))
    .sort()
    .map((file) => ({ path: relative(root, file), ...reachOf(file, parsed) }));
}
