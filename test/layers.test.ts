// Each layer imports only downward (docs/architecture.md#layers): every import of every source file under src/
// is read (a regex over its import and export statements is enough for our own code) and its target's
// layer compared with its own. A failure lists each upward import, file and line. Within the domain,
// the module folders import one another without a loop: a failure lists each loop, import by import.
// The README's code map follows these places: each is named there under its layer, in layer order.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** Top to bottom; an import may point to its own layer or any below it. */
const LAYERS = ['entry', 'jobs', 'doors', 'pipeline', 'domain', 'data', 'contract', 'kernel'] as const;
type Layer = (typeof LAYERS)[number];

/**
 * Where each file sits, by path from the repo root; the longest matching prefix wins. A path that
 * matches none fails the test: a new folder or top-level file must be given its place here.
 */
const PLACES: ReadonlyArray<readonly [string, Layer]> = [
  // Entry: the process and the app, and beside them the command-line tools and the fixtures (the demo
  // data set, the benchmark's data set), which may use every layer below. The benchmark itself lives
  // in bench/, outside src/, and stands above them all.
  ['src/main.ts', 'entry'],
  ['src/app.ts', 'entry'],
  // The layers the entry puts around the doors (request log, operations, shared limits, GraphQL plugins).
  ['src/serviceLayers.ts', 'entry'],
  ['src/cli/', 'entry'],
  // What a process starts for its role, says when it listens, and how it fails and stops.
  ['src/process/', 'entry'],
  ['src/fixtures/', 'entry'],
  // Tracing's start: preloaded before the service's modules (node --import), as high as the entry.
  ['src/telemetry/', 'entry'],
  // Jobs: the one loop of background work and its tasks, started by the worker role (process/service.ts);
  // below the entry that starts them, above the domain modules whose batches they run.
  ['src/jobs/', 'jobs'],
  // Doors: the REST shim and the operations endpoints (health, metrics, headers, HTTP limits).
  ['src/rest/', 'doors'],
  ['src/ops/', 'doors'],
  // The one error renderer every door answers through (errors.ts holds the table it reads).
  ['src/http/', 'doors'],
  // The browser pages (/, /docs, /graphiql): a door of their own, above the renderer they answer errors through.
  ['src/pages/', 'doors'],
  // Pipeline: what every request goes through before a resolver runs.
  // The schema, the context, the executor, and the limits on documents (documentLimits/) and on request
  // rates (rateLimits/).
  ['src/pipeline/', 'pipeline'],
  // Domain: the modules, their generated resolver signatures (the SDL's types bound to the modules'
  // rows), and the ledger checker, which states the ledger's invariants over the data layer.
  ['src/modules/', 'domain'],
  ['src/__generated__/resolvers.ts', 'domain'],
  ['src/ledger/', 'domain'],
  // Data: the database, its drivers and the migrations it applies.
  ['src/db/', 'data'],
  ['migrations/', 'data'],
  // The legacy contract: pure functions from the domain's values (rows' columns, the figures the domain
  // computed) to the frozen legacy JSON, used by the REST door, the event log and the OpenAPI document.
  // Below the domain, which writes its events with it; below the data too, since it takes plain values
  // and never a database: it may import only the kernel (money, the operations' generated types).
  ['src/contract/', 'contract'],
  // Kernel: what every layer may use (the active trace among them, a no-op when tracing is off).
  ['src/kernel/', 'kernel'],
  ['src/__generated__/operations.ts', 'kernel'],
];

function layerOf(path: string): Layer | undefined {
  let best: readonly [string, Layer] | undefined;
  for (const place of PLACES) {
    const matches = place[0].endsWith('/') ? path.startsWith(place[0]) : path === place[0];
    if (matches && (!best || place[0].length > best[0].length)) best = place;
  }
  return best?.[1];
}

const rank = (layer: Layer) => LAYERS.indexOf(layer);

/** Every checked source file: src/**\/*.ts but tests and generated code. */
function sourceFiles(dir = 'src'): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === '__generated__' ? [] : sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

interface Import {
  line: number;
  /** The repo-relative path of a relative import's target, as a .ts file. */
  target: string;
  /** `import type` / `export type`, or every named binding marked `type`: erased at compile time. */
  typeOnly: boolean;
}

// import x from '...', import { a } from '...', import type ..., export { a } from '...', export * from '...'
const STATIC_IMPORT = /\b(import|export)\s+(type\s+)?([\w*${}\s,]*?)\s*from\s*['"]([^'"]+)['"]/g;
// import '...' (for its effects) and import('...')
const BARE_IMPORT = /\bimport\s*(?:\(\s*)?['"]([^'"]+)['"]/g;

/** The relative imports of one file (packages and node: builtins are not layers). */
function importsOf(path: string, text: string): Import[] {
  const found: Import[] = [];
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  const add = (index: number, specifier: string, typeOnly: boolean) => {
    if (!specifier.startsWith('.')) return;
    const target = relative(ROOT, resolve(ROOT, dirname(path), specifier)).replace(/\.js$/, '.ts');
    found.push({ line: lineAt(index), target, typeOnly });
  };
  for (const match of text.matchAll(STATIC_IMPORT)) {
    const bindings = match[3]!;
    const named = /\{([^}]*)\}/.exec(bindings)?.[1];
    const withDefault = /^[\w$]+\s*,/.test(bindings.trim());
    const names = (named ?? '')
      .split(',')
      .map((binding) => binding.trim())
      .filter(Boolean);
    const everyNamedIsType = !withDefault && names.length > 0 && names.every((binding) => binding.startsWith('type '));
    add(match.index, match[4]!, !!match[2] || everyNamedIsType);
  }
  for (const match of text.matchAll(BARE_IMPORT)) add(match.index, match[1]!, false);
  return found;
}

/**
 * The one upward import allowed: resolvers (and the generated resolver signatures) name their
 * context's type, as every GraphQL server does. Only the type: it is erased when compiled, so no
 * code of the domain runs code of the pipeline.
 */
function allowedUpward(from: string, imported: Import): boolean {
  return layerOf(from) === 'domain' && imported.target === 'src/pipeline/context.ts' && imported.typeOnly;
}

/** Every import from a lower layer to a higher one, as "file:line (layer) -> target (layer)". */
function upwardImports(files: readonly { path: string; text: string }[]): string[] {
  const upward: string[] = [];
  for (const { path, text } of files) {
    const from = layerOf(path)!;
    for (const imported of importsOf(path, text)) {
      const to = layerOf(imported.target);
      if (!to) {
        upward.push(`${path}:${imported.line} (${from}) -> ${imported.target} (no layer)`);
        continue;
      }
      if (rank(to) < rank(from) && !allowedUpward(path, imported)) {
        upward.push(`${path}:${imported.line} (${from}) -> ${imported.target} (${to})`);
      }
    }
  }
  return upward;
}

/** The module folder a path sits in (src/modules/<folder>/...), or undefined for any other path. */
const moduleFolderOf = (path: string) => /^src\/modules\/([^/]+)\//.exec(path)?.[1];

/**
 * Every loop among the module folders: folder A imports B when a file of A imports a file of B (a
 * type-only import too: it ties the two as much). One loop per strongly connected group of folders
 * (Tarjan), written "a -> b -> a", each step with the first import that makes it.
 */
function folderLoops(files: readonly { path: string; text: string }[]): string[] {
  const edges = new Map<string, Map<string, string>>();
  for (const { path, text } of files) {
    const from = moduleFolderOf(path);
    if (!from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    for (const imported of importsOf(path, text)) {
      const to = moduleFolderOf(imported.target);
      if (!to || to === from) continue;
      if (!edges.has(to)) edges.set(to, new Map());
      const out = edges.get(from)!;
      if (!out.has(to)) out.set(to, `${path}:${imported.line} -> ${imported.target}`);
    }
  }
  const folders = [...edges.keys()].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const connect = (folder: string) => {
    index.set(folder, index.size);
    low.set(folder, index.get(folder)!);
    stack.push(folder);
    for (const to of [...edges.get(folder)!.keys()].sort()) {
      if (!index.has(to)) {
        connect(to);
        low.set(folder, Math.min(low.get(folder)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(folder, Math.min(low.get(folder)!, index.get(to)!));
    }
    if (low.get(folder) !== index.get(folder)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      group.push(member);
    } while (member !== folder);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const folder of folders) if (!index.has(folder)) connect(folder);
  // In each group, the shortest way back from its first folder to itself (breadth first, inside the group).
  return groups.map((group) => {
    const start = group[0]!;
    const cameFrom = new Map<string, string>();
    const queue = [start];
    let last: string | undefined;
    while (queue.length > 0 && last === undefined) {
      const folder = queue.shift()!;
      for (const to of [...edges.get(folder)!.keys()].sort()) {
        if (!group.includes(to)) continue;
        if (to === start) {
          last = folder;
          break;
        }
        if (!cameFrom.has(to)) {
          cameFrom.set(to, folder);
          queue.push(to);
        }
      }
    }
    const loop = [last!];
    while (loop[0] !== start) loop.unshift(cameFrom.get(loop[0]!)!);
    loop.push(start);
    const steps = loop.slice(1).map((to, i) => `  ${loop[i]} -> ${to}: ${edges.get(loop[i]!)!.get(to)}`);
    return [loop.join(' -> '), ...steps].join('\n');
  });
}

const files = sourceFiles().map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));

describe('layers', () => {
  it('gives every source file under src/ a layer', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter((file) => !layerOf(file.path)).map((file) => file.path)).toEqual([]);
  });

  it('has no import from a lower layer to a higher one', () => {
    expect(upwardImports(files)).toEqual([]);
  });

  it('keeps the domain out of the doors and the pipeline: only the Context type may be named', () => {
    const above = /^src\/(rest|ops|limits|cli|fixtures)\/|^src\/(context|schema|app|main)\.ts$/;
    const reachingUp = files
      .filter((file) => layerOf(file.path) === 'domain')
      .flatMap((file) => importsOf(file.path, file.text).map((imported) => ({ from: file.path, imported })))
      .filter(({ from, imported }) => above.test(imported.target) && !allowedUpward(from, imported));
    expect(reachingUp.map(({ from, imported }) => `${from}:${imported.line} -> ${imported.target}`)).toEqual([]);
  });

  it('has no loop among the module folders (a folder importing one that imports it back, directly or round a longer loop)', () => {
    expect(folderLoops(files)).toEqual([]);
  });

  it('names a loop among module folders, import by import (the check itself)', () => {
    const loop = [
      { path: 'src/modules/a/x.ts', text: "import { b } from '../b/y.js';" },
      { path: 'src/modules/b/y.ts', text: "import type { C } from '../c/z.js';\nimport { k } from '../tenancy.js';" },
      { path: 'src/modules/c/z.ts', text: "import { a } from '../a/w.js';" },
      { path: 'src/modules/d/v.ts', text: "import { a } from '../a/x.js';" },
    ];
    expect(folderLoops(loop)).toEqual([
      [
        'a -> b -> c -> a',
        '  a -> b: src/modules/a/x.ts:1 -> src/modules/b/y.ts',
        '  b -> c: src/modules/b/y.ts:1 -> src/modules/c/z.ts',
        '  c -> a: src/modules/c/z.ts:1 -> src/modules/a/w.ts',
      ].join('\n'),
    ]);
    expect(folderLoops(loop.slice(1))).toEqual([]);
  });

  it('reads the import forms our code uses, and catches an upward one (the check itself)', () => {
    const text = [
      "import { a } from '../../ops/metrics.js';",
      "import type { Context } from '../../pipeline/context.js';",
      "import { type Context as C } from '../../pipeline/context.js';",
      "import { createContext } from '../../pipeline/context.js';",
      "export { b } from '../../rest/status.js';",
      "import '../../app.js';",
      "const lazy = await import('../../pipeline/documentLimits/graphqlLimits.js');",
      "import { c } from 'graphql';",
    ].join('\n');
    expect(importsOf('src/modules/x/y.ts', text).map((i) => [i.line, i.target, i.typeOnly])).toEqual([
      [1, 'src/ops/metrics.ts', false],
      [2, 'src/pipeline/context.ts', true],
      [3, 'src/pipeline/context.ts', true],
      [4, 'src/pipeline/context.ts', false],
      [5, 'src/rest/status.ts', false],
      [6, 'src/app.ts', false],
      [7, 'src/pipeline/documentLimits/graphqlLimits.ts', false],
    ]);
    expect(upwardImports([{ path: 'src/modules/x/y.ts', text }])).toEqual([
      'src/modules/x/y.ts:1 (domain) -> src/ops/metrics.ts (doors)',
      'src/modules/x/y.ts:4 (domain) -> src/pipeline/context.ts (pipeline)',
      'src/modules/x/y.ts:5 (domain) -> src/rest/status.ts (doors)',
      'src/modules/x/y.ts:6 (domain) -> src/app.ts (entry)',
      'src/modules/x/y.ts:7 (domain) -> src/pipeline/documentLimits/graphqlLimits.ts (pipeline)',
    ]);
    // A type-only import is still an import: only the domain's Context type is let through.
    const fromData = "import type { Principal } from '../modules/auth/principal.js';";
    expect(upwardImports([{ path: 'src/db/x.ts', text: fromData }])).toEqual([
      'src/db/x.ts:1 (data) -> src/modules/auth/principal.ts (domain)',
    ]);
  });
});

/** A section of the README's code map: its heading's layer (null: beside src/, outside the layers), its paths. */
interface MapSection {
  heading: string;
  layer: Layer | null;
  paths: string[];
}

/**
 * The code map of a README: the text block between <!-- code-map:start --> and <!-- code-map:end -->,
 * cut into sections by its `# <layer>: ...` lines; an entry is a line starting at its first column,
 * whose first word is the path it describes (a line starting with spaces goes on describing).
 */
function codeMapOf(readme: string): MapSection[] {
  const from = readme.indexOf('<!-- code-map:start -->');
  const to = readme.indexOf('<!-- code-map:end -->');
  if (from < 0 || to < from) throw new Error('the README has no <!-- code-map:start --> ... <!-- code-map:end -->');
  const sections: MapSection[] = [];
  for (const line of readme.slice(from, to).split('\n')) {
    if (line.startsWith('```') || line.startsWith('<!--') || line.trim() === '') continue;
    const heading = /^# (.*)$/.exec(line)?.[1];
    if (heading !== undefined) {
      const named = /^(\w+):/.exec(heading)?.[1];
      const layer = LAYERS.find((candidate) => candidate === named) ?? null;
      sections.push({ heading, layer, paths: [] });
      continue;
    }
    if (/^\s/.test(line)) continue;
    const section = sections.at(-1);
    if (!section) throw new Error(`a code map entry before any # heading: ${line}`);
    section.paths.push(line.split(/\s+/)[0]!);
  }
  return sections;
}

/** What is wrong with a code map against PLACES: one line per problem. */
function codeMapProblems(sections: readonly MapSection[], exists: (path: string) => boolean): string[] {
  const problems: string[] = [];
  const layered = sections.filter((section) => section.layer !== null);
  const order = layered.map((section) => section.layer!);
  if (order.join(' ') !== LAYERS.join(' ')) {
    problems.push(`the map's layers run ${order.join(', ')}; the layers are ${LAYERS.join(', ')}`);
  }
  for (const section of sections) {
    for (const path of section.paths) {
      if (!exists(path)) problems.push(`${path}: named by the map, not in the repository`);
      const layer = layerOf(path) ?? null;
      if (layer !== section.layer) {
        problems.push(`${path}: under "${section.heading}", but its layer is ${layer ?? 'none (outside the layers)'}`);
      }
    }
  }
  for (const [path, layer] of PLACES) {
    const where = sections.find((section) => section.paths.includes(path));
    if (!where) problems.push(`${path} (${layer}): a place of the layers the map does not name`);
    else if (where.layer !== layer) problems.push(`${path} (${layer}): named under "${where.heading}"`);
  }
  return problems;
}

describe("the README's code map", () => {
  it('names every place of the layers under its layer, in layer order, and only paths that exist', () => {
    const sections = codeMapOf(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(sections.flatMap((section) => section.paths).length).toBeGreaterThanOrEqual(PLACES.length);
    expect(codeMapProblems(sections, (path) => existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('names each kind of drift (the check itself)', () => {
    const map = [
      '<!-- code-map:start -->',
      '```text',
      '# beside src/: around the code',
      'package.json       scripts',
      'src/main.ts        misplaced: it is the entry',
      '# doors: the doors',
      'src/rest/          the REST shim',
      '                   (a line of description, not an entry)',
      '# entry: the process',
      'src/app.ts         the app',
      'src/nowhere/       not in the repository',
      '```',
      '<!-- code-map:end -->',
    ].join('\n');
    const problems = codeMapProblems(codeMapOf(map), (path) => path !== 'src/nowhere/');
    expect(problems).toEqual(
      expect.arrayContaining([
        `the map's layers run doors, entry; the layers are ${LAYERS.join(', ')}`,
        'src/main.ts: under "beside src/: around the code", but its layer is entry',
        'src/nowhere/: named by the map, not in the repository',
        'src/nowhere/: under "entry: the process", but its layer is none (outside the layers)',
        'src/main.ts (entry): named under "beside src/: around the code"',
        'src/cli/ (entry): a place of the layers the map does not name',
        'src/kernel/ (kernel): a place of the layers the map does not name',
      ]),
    );
    expect(problems.some((problem) => problem.startsWith('package.json'))).toBe(false);
    expect(problems.some((problem) => problem.includes('a line of description'))).toBe(false);
  });
});
