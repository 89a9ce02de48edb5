// The files the pages load, all served by the service itself (no CDN, nothing fetched from elsewhere):
// the browser builds of npm packages, found in node_modules once per process, and the pages' own
// scripts and stylesheet in browser/ beside this module (copied to dist/ by scripts/build.ts). Each is
// served under a name carrying a hash of its bytes, so a browser may keep it for a year.
//
// The packages are devDependencies, except graphql-ws (the server's too): a production install has
// none of them (docs/decisions.md, section 31). /docs is served in production, so the build copies
// Swagger UI's two files into dist/ beside this module (vendor/), where the compiled service reads
// them; GraphiQL's are read only when the router serves /graphiql, outside production.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type AssetName =
  | 'pages.css'
  | 'docs.js'
  | 'graphiql-page.js'
  | 'swagger-ui.js'
  | 'swagger-ui.css'
  | 'react.js'
  | 'react-dom.js'
  | 'graphql-ws.js'
  | 'graphiql.js'
  | 'graphiql.css';

export interface Asset {
  /** Where the pages link it: /assets/<name>.<hash>.<ext>. */
  url: string;
  /** The file on disk. */
  path: string;
  contentType: string;
}

const OWN_FILES = fileURLToPath(new URL('./browser/', import.meta.url));
/** Where npm run build copies BUILT_PACKAGE_FILES, by asset name (absent when running from the sources). */
const BUILT_FILES = fileURLToPath(new URL('./vendor/', import.meta.url));
const requireFrom = createRequire(import.meta.url);

/** A file of an installed package, by its package.json (every one of these packages exports it). */
function packageFile(packageName: string, file: string): string {
  return join(dirname(requireFrom.resolve(`${packageName}/package.json`)), file);
}

/** The assets that are files of npm packages: the package and the file in it. */
export const PACKAGE_FILES = {
  // Swagger UI's bundle carries its own React; it renders the OpenAPI document.
  'swagger-ui.js': { packageName: 'swagger-ui-dist', file: 'swagger-ui-bundle.js' },
  'swagger-ui.css': { packageName: 'swagger-ui-dist', file: 'swagger-ui.css' },
  // GraphiQL 3's UMD build reads React 18 and ReactDOM from globals (React 19 ships no UMD build).
  'react.js': { packageName: 'react', file: 'umd/react.production.min.js' },
  'react-dom.js': { packageName: 'react-dom', file: 'umd/react-dom.production.min.js' },
  // The client of the service's own subscription protocol (graphql-transport-ws), as window.graphqlWs.
  'graphql-ws.js': { packageName: 'graphql-ws', file: 'umd/graphql-ws.min.js' },
  'graphiql.js': { packageName: 'graphiql', file: 'dist/index.umd.js' },
  // Its fonts are inlined as data: URLs, which the default font-src allows.
  'graphiql.css': { packageName: 'graphiql', file: 'dist/style.css' },
} as const satisfies Partial<Record<AssetName, { packageName: string; file: string }>>;
type PackageAssetName = keyof typeof PACKAGE_FILES;

/**
 * The package files npm run build copies into dist/ (production serves /docs; swagger-ui-dist is 12 MB
 * of bundles and source maps for these two files of 1.8 MB).
 */
export const BUILT_PACKAGE_FILES: readonly PackageAssetName[] = ['swagger-ui.js', 'swagger-ui.css'];

/** The installed package's file of an asset (what the build copies, and what the sources serve). */
export function installedPackageFile(name: PackageAssetName): string {
  return packageFile(PACKAGE_FILES[name].packageName, PACKAGE_FILES[name].file);
}

function packageAsset(name: PackageAssetName): string {
  const built = join(BUILT_FILES, name);
  return BUILT_PACKAGE_FILES.includes(name) && existsSync(built) ? built : installedPackageFile(name);
}

const SOURCES: Record<AssetName, () => string> = {
  'pages.css': () => join(OWN_FILES, 'pages.css'),
  'docs.js': () => join(OWN_FILES, 'docs.js'),
  'graphiql-page.js': () => join(OWN_FILES, 'graphiql-page.js'),
  'swagger-ui.js': () => packageAsset('swagger-ui.js'),
  'swagger-ui.css': () => packageAsset('swagger-ui.css'),
  'react.js': () => packageAsset('react.js'),
  'react-dom.js': () => packageAsset('react-dom.js'),
  'graphql-ws.js': () => packageAsset('graphql-ws.js'),
  'graphiql.js': () => packageAsset('graphiql.js'),
  'graphiql.css': () => packageAsset('graphiql.css'),
};

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

const loaded = new Map<AssetName, Asset>();

/**
 * The asset `name`, read and hashed once per process. The router asks for each asset its pages use when
 * the app is created, so a missing file (a package not installed, a build that did not copy browser/)
 * stops the service at start rather than breaking a page later.
 */
export function pageAsset(name: AssetName): Asset {
  let asset = loaded.get(name);
  if (!asset) {
    const path = SOURCES[name]();
    const hash = createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 12);
    const extension = extname(name);
    const url = `/assets/${name.slice(0, -extension.length)}.${hash}${extension}`;
    asset = { url, path, contentType: CONTENT_TYPES[extension]! };
    loaded.set(name, asset);
  }
  return asset;
}
