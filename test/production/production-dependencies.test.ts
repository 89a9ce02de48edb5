// The production install, held without installing (docs/decisions.md, section 31): the packages
// `npm ci --omit=dev` takes, read from package-lock.json, sum to at most 92 MB on disk (as installed
// here, measured as du measures); and nothing the processes of a production install run (the service,
// its preload, the command-line tools) loads is a devDependency, apart from the embedded database, which
// src/db/knex.ts loads only without DATABASE_URL (and, without it, stops with one line), and the console's
// bundler, which src/pages/consoleBundle.ts loads only where the console is not built; and tracing,
// which no longer has a gRPC exporter, refuses that protocol in one line. The real install in a clean folder, started on
// Postgres, is test/production/production-install.test.ts (the deployment's).
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, EMBEDDED_DATABASE_PACKAGES, loadConfig } from '../../src/kernel/config.js';
import { otlpProtocol } from '../../src/kernel/tracingSettings.js';
import { BUILT_PACKAGE_FILES, PACKAGE_FILES } from '../../src/pages/assets.js';
import { assetsOf, DOCS_ASSETS, LANDING_ASSETS } from '../../src/pages/html.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// du counts about 1 MB more than the packages themselves (the scopes' folders, .bin, npm's own lock file).
const LIMIT_BYTES = 91 * 2 ** 20;

interface LockEntry {
  version?: string;
  dev?: boolean;
  devOptional?: boolean;
  optional?: boolean;
  link?: boolean;
  os?: string[];
  cpu?: string[];
}
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

/** The lock's installed folders (node_modules/... paths) that `npm ci --omit=dev` installs. */
const productionEntries = Object.entries(lock.packages).filter(
  ([path, entry]) => path.includes('node_modules/') && !entry.dev && !entry.link,
);
/** Package name -> whether a production install has it (at the top level, where an import finds it). */
const isProductionPackage = (name: string) => {
  const entry = lock.packages[`node_modules/${name}`];
  return entry !== undefined && !entry.dev;
};

/** Bytes on disk of a folder's files (du's measure: allocated blocks), not counting nested node_modules. */
function diskBytes(folder: string): number {
  let total = lstatSync(folder).blocks * 512;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name === 'node_modules') continue; // its packages are entries of their own
    const path = join(folder, entry.name);
    total += entry.isDirectory() ? diskBytes(path) : lstatSync(path).blocks * 512;
  }
  return total;
}

describe('the production install', () => {
  it('takes at most 92 MB of node_modules', () => {
    const sizes = productionEntries.flatMap(([path, entry]) => {
      const folder = join(ROOT, path);
      // A package for another platform (an optional native build) is not installed here, nor there.
      if (!existsSync(folder) && (entry.os || entry.cpu || entry.optional)) return [];
      expect(existsSync(folder), `${path} is in the lock but not installed: run npm ci`).toBe(true);
      return [{ path, bytes: diskBytes(folder) }];
    });
    const total = sizes.reduce((sum, { bytes }) => sum + bytes, 0);
    const biggest = sizes
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 10)
      .map(({ path, bytes }) => `${path.replace(/^.*node_modules\//, '')} ${(bytes / 2 ** 20).toFixed(1)} MB`);
    expect(
      total,
      `production node_modules: ${(total / 2 ** 20).toFixed(1)} MB; biggest: ${biggest.join(', ')}`,
    ).toBeLessThanOrEqual(LIMIT_BYTES);
    // The lock does take the service's runtime (the test would pass on an empty set otherwise).
    for (const name of ['express', 'pg', 'knex', '@apollo/server', '@opentelemetry/sdk-trace-node']) {
      expect(isProductionPackage(name), name).toBe(true);
    }
  });

  it('has none of the development-only packages the service used to install', () => {
    for (const name of [
      'graphiql',
      'react',
      'react-dom',
      'swagger-ui-dist',
      '@opentelemetry/sdk-node',
      '@grpc/grpc-js',
      ...EMBEDDED_DATABASE_PACKAGES,
    ]) {
      expect(isProductionPackage(name), name).toBe(false);
    }
  });
});

// ---- What the production processes load ----

/** The files a production install runs: the service, its preload, and the command-line tools it documents. */
const ENTRIES = [
  'src/main.ts',
  'src/telemetry/preload.ts',
  'src/cli/db.ts',
  'src/cli/keys.ts',
  'src/cli/ledger-check.ts',
  'src/cli/events-purge.ts',
];

/**
 * The specifiers a module loads at run time: static imports and re-exports (type-only ones are erased
 * by the compiler; with verbatimModuleSyntax `import { type A }` is kept, and so loads its module),
 * dynamic imports, require calls (createRequire's too) and registered loader hooks.
 */
function runtimeSpecifiers(source: string): string[] {
  const patterns = [
    /^\s*(?:import|export)\s+(?!type\s)[^;'"]*?\bfrom\s+['"]([^'"]+)['"]/gm,
    /^\s*import\s+['"]([^'"]+)['"]/gm,
    /(?<!typeof\s)\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\b(?:require|[A-Za-z]+Require)\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\bregister\(\s*['"]([^'"]+)['"]/g,
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]!));
}

const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(specifier);

/** Every package the entries load, with the files that load it, following the service's own modules. */
function packagesLoaded(entries: readonly string[]): Map<string, Set<string>> {
  const loaded = new Map<string, Set<string>>();
  const seen = new Set<string>();
  const queue = entries.map((entry) => join(ROOT, entry));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of runtimeSpecifiers(readFileSync(file, 'utf8'))) {
      if (isBuiltin(specifier)) continue;
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
        if (target.endsWith('.ts')) queue.push(target); // .graphql, .json: read, not imported
        continue;
      }
      const name = packageName(specifier);
      const by = loaded.get(name) ?? new Set<string>();
      by.add(relative(ROOT, file));
      loaded.set(name, by);
    }
  }
  return loaded;
}

describe('what a production install runs', () => {
  const loaded = packagesLoaded(ENTRIES);

  it('finds the imports of every kind (the walk would pass on nothing otherwise)', () => {
    expect(
      runtimeSpecifiers(
        [
          "import express, { type Router } from 'express';",
          "import type { Logger } from 'pino';",
          "export { x } from './x.js';",
          "export type { Y } from './y.js';",
          "import {\n  a,\n  b,\n} from 'multi-line';",
          "import 'side-effect';",
          "const { register } = await import('node:module');",
          "const p = embeddedRequire('knex-pglite') as typeof import('knex-pglite');",
          "register('import-in-the-middle/hook.mjs', import.meta.url);",
        ].join('\n'),
      ).sort(),
    ).toEqual(
      [
        'express',
        './x.js',
        'multi-line',
        'side-effect',
        'node:module',
        'knex-pglite',
        'import-in-the-middle/hook.mjs',
      ].sort(),
    );
    // The service's own runtime, reached through its modules.
    for (const name of [
      'express',
      'pg',
      'knex',
      '@apollo/server',
      'graphql',
      'pino',
      '@opentelemetry/sdk-trace-node',
    ]) {
      expect(loaded.has(name), name).toBe(true);
    }
  });

  it('loads no development package, but the embedded database where no DATABASE_URL is set, and the console bundler where the console is not built', () => {
    const devOnly = [...loaded]
      .filter(([name]) => !isProductionPackage(name))
      .map(([name, files]) => `${name} (${[...files].join(', ')})`);
    // esbuild: imported only when dist/ holds no bundle of the console (run from the sources) and it is
    // installed; the build's bundle is served without it (production-install.test.ts, decisions.md 46).
    expect(devOnly.sort()).toEqual(
      [
        ...EMBEDDED_DATABASE_PACKAGES.map((name) => `${name} (src/db/knex.ts)`),
        'esbuild (src/pages/consoleBundle.ts)',
      ].sort(),
    );
  });

  it("serves the production pages' files from production packages or from the build", () => {
    const packageFiles = PACKAGE_FILES as Record<string, { packageName: string } | undefined>;
    for (const name of new Set([...assetsOf(LANDING_ASSETS), ...assetsOf(DOCS_ASSETS)])) {
      const source = packageFiles[name];
      if (!source) continue; // the pages' own files, under src/pages/browser/
      const built = (BUILT_PACKAGE_FILES as readonly string[]).includes(name);
      expect(built || isProductionPackage(source.packageName), `${name} (${source.packageName})`).toBe(true);
    }
  });
});

/** `to` made a node_modules of symbolic links to `from`'s packages, scoped ones included, leaving out `left`. */
function linkPackagesExcept(from: string, to: string, left: readonly string[]): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) {
      for (const scoped of readdirSync(join(from, entry))) {
        if (left.includes(`${entry}/${scoped}`)) continue;
        mkdirSync(join(to, entry), { recursive: true });
        symlinkSync(join(from, entry, scoped), join(to, entry, scoped));
      }
    } else if (!left.includes(entry)) {
      symlinkSync(join(from, entry), join(to, entry));
    }
  }
}

describe('a production install without DATABASE_URL', () => {
  it('stops at its configuration with one line naming the variable and the fix', () => {
    // The configuration module where no node_modules holds the embedded database, as a production
    // install has it: the kernel copied outside the repository, beside a node_modules of links to every
    // installed package but those two (the kernel reads a GraphQL manifest: graphql must resolve).
    const folder = mkdtempSync(join(tmpdir(), 'lean-config-'));
    try {
      cpSync(join(ROOT, 'src/kernel'), join(folder, 'src/kernel'), { recursive: true });
      linkPackagesExcept(join(ROOT, 'node_modules'), join(folder, 'node_modules'), EMBEDDED_DATABASE_PACKAGES);
      writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
      const run = spawnSync(
        process.execPath,
        [
          '--import',
          join(ROOT, 'node_modules/tsx/dist/loader.mjs'),
          '--input-type=module',
          '-e',
          `const { loadConfig, ConfigError } = await import(${JSON.stringify(join(folder, 'src/kernel/config.ts'))});
           try { loadConfig({ DATA_DIR: ${JSON.stringify(join(folder, 'data'))} }); console.log('loaded'); }
           catch (error) { console.log(error instanceof ConfigError ? error.message : 'other: ' + error); }`,
        ],
        // tsx's compile cache goes under TMPDIR: kept inside the folder removed below.
        { encoding: 'utf8', cwd: folder, env: { ...process.env, TMPDIR: folder } },
      );
      expect(run.stderr).toBe('');
      expect(run.stdout.trim()).toBe(
        'DATABASE_URL is not set and the embedded database is not installed (a production install leaves it out): ' +
          'set DATABASE_URL or install it: npm install --no-save @electric-sql/pglite knex-pglite',
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('tracing without the gRPC exporter', () => {
  const tracingOn = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', DATA_DIR: join(tmpdir(), 'unused') };

  it('exports over OTLP/HTTP, protobuf by default or JSON', () => {
    expect(otlpProtocol({})).toBe('http/protobuf');
    expect(otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBe('http/json');
    expect(
      otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' }),
    ).toBe('http/protobuf');
  });

  it('refuses grpc at start with one line naming the variable, only while tracing is on', () => {
    const configure = (env: Record<string, string>) => () =>
      loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://app@db/financing', ...env });
    expect(configure({ ...tracingOn, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' })).toThrow(
      new ConfigError(
        'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
        `must be http/protobuf or http/json, got "grpc" (traces are exported over OTLP/HTTP only, a collector's port 4318)`,
      ),
    );
    // Tracing off: the variable is not read (it fails on the missing signing keys instead, as without it).
    expect(configure({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/TOKEN_SIGNING_SECRET|DEVICE_SIGNING_KEYS/);
  });
});
