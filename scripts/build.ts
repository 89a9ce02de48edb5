// npm run build: the service compiled to JavaScript in dist/ (tsc -p tsconfig.build.json: src/ and the
// migrations it imports), with the files the code reads beside itself at run time copied to the same
// places under dist/ (schema/*.graphql for src/pipeline/schema.ts, src/rest/operations/*.graphql for
// src/rest/routes.ts, the pages' browser scripts and stylesheet for src/pages/assets.ts, openapi.json
// for src/app.ts), so `node dist/src/main.js` runs with no TypeScript compiler at start-up; and the
// files of devDependencies a production page loads (Swagger UI's two, for /docs) into
// dist/src/pages/vendor/, so a production install (npm ci --omit=dev) serves them without the package.
// The console (console/) is bundled by esbuild into dist/src/pages/console/ (src/pages/console.ts serves
// it), with its operations' texts copied to dist/console/operations/ (trusted with the REST door's).
// `--bench` builds the same into dist-bench/ with bench/ beside it (tsconfig.bench.json): npm run bench
// runs the service and its bare baselines as compiled JavaScript, as production runs the service.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BUILT_PACKAGE_FILES, installedPackageFile } from '../src/pages/assets.js';
import { consoleBuildOptions } from '../src/pages/consoleBundle.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const bench = process.argv.includes('--bench');
const DIST = `${ROOT}${bench ? 'dist-bench' : 'dist'}/`;
/** Folders whose files of these kinds the code reads beside itself at run time. */
const RUNTIME_FILES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['schema', ['.graphql']],
  ['src/rest/operations', ['.graphql']],
  ['src/pages/browser', ['.js', '.css']],
  ['console/operations', ['.graphql']],
];
/** Single files the code reads beside itself at run time. */
const RUNTIME_FILE_NAMES = ['openapi.json'];

rmSync(DIST, { recursive: true, force: true }); // no module of a deleted source file survives
execFileSync(`${ROOT}node_modules/.bin/tsc`, ['-p', bench ? 'tsconfig.bench.json' : 'tsconfig.build.json'], {
  cwd: ROOT,
  stdio: 'inherit',
});
for (const [dir, kinds] of RUNTIME_FILES) {
  for (const file of readdirSync(`${ROOT}${dir}`).filter((name) => kinds.some((kind) => name.endsWith(kind)))) {
    cpSync(`${ROOT}${dir}/${file}`, `${DIST}${dir}/${file}`);
  }
}
for (const file of RUNTIME_FILE_NAMES) cpSync(`${ROOT}${file}`, `${DIST}${file}`);
for (const name of BUILT_PACKAGE_FILES) cpSync(installedPackageFile(name), `${DIST}src/pages/vendor/${name}`);
await build(consoleBuildOptions(`${DIST}src/pages/console`));
process.stdout.write(bench ? `built ${DIST}\n` : `built ${DIST} (start it with npm run start:prod)\n`);
