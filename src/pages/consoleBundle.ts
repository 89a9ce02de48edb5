// How the console (console/, docs/decisions.md 46) becomes one script and one stylesheet: esbuild's
// options, shared by npm run build (scripts/build.ts, into dist/) and by the service run from its
// sources, which bundles it in memory at the first request for it. esbuild is a devDependency: this
// module imports it only when it bundles, so a production install (which serves dist/'s files) never
// resolves it.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

/** The console's sources: the repository's console/ (dist/console/ holds its operations when built). */
export const CONSOLE_SOURCES = fileURLToPath(new URL('../../console/', import.meta.url));
const OPERATIONS = join(CONSOLE_SOURCES, 'operations');

export interface ConsoleFiles {
  script: Uint8Array;
  stylesheet: Uint8Array;
}

/** esbuild's options for the console: one minified script (React, graphql-ws's client) and its stylesheet. */
export function consoleBuildOptions(outdir: string): BuildOptions {
  return {
    entryPoints: { console: join(CONSOLE_SOURCES, 'src', 'main.tsx') },
    outdir,
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    jsx: 'automatic',
    // Each operation is a .graphql file, bundled as its text (the same text the service trusts).
    loader: { '.graphql': 'text' },
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'eof',
    logLevel: 'silent',
  };
}

/** Whether esbuild is installed (a development install has it; a production install does not). */
export function canBundleConsole(): boolean {
  try {
    createRequire(import.meta.url).resolve('esbuild');
    return true;
  } catch {
    return false;
  }
}

let bundled: Promise<ConsoleFiles> | null = null;

/**
 * The console bundled in memory from its sources, once per process (every app of the process shares
 * it); a failed bundle is tried again at the next request. esbuild's helper process is stopped once it
 * is done: nothing else of the service asks it anything, and a helper left running could be ended
 * under it (by a test's clean-up), failing the next bundle for good.
 */
export function bundleConsole(): Promise<ConsoleFiles> {
  bundled ??= bundleFromSources().catch((error: unknown) => {
    bundled = null;
    throw error;
  });
  return bundled;
}

async function bundleFromSources(): Promise<ConsoleFiles> {
  const esbuild = await import('esbuild');
  try {
    const result = await esbuild.build({ ...consoleBuildOptions('/console-bundle'), write: false });
    const output = (extension: string) => {
      const file = result.outputFiles.find((candidate) => candidate.path.endsWith(extension));
      if (!file) throw new Error(`the console's bundle has no ${extension} file`);
      return file.contents;
    };
    return { script: output('.js'), stylesheet: output('.css') };
  } finally {
    await esbuild.stop();
  }
}

/**
 * The texts of the console's operations, one operation per file: the service's own documents, trusted
 * with the REST door's when GRAPHQL_TRUSTED_DOCUMENTS is set (decisions.md 33).
 */
export function consoleOperationTexts(): string[] {
  return readdirSync(OPERATIONS)
    .filter((name) => name.endsWith('.graphql'))
    .sort()
    .map((name) => readFileSync(join(OPERATIONS, name), 'utf8'));
}
