// GET /console: the console (docs/decisions.md 46), a page that reads and changes the service only
// through /graphql with the person's own key. This door serves its HTML and its two files under
// /console/assets/, each named by a hash of its bytes; the files come from npm run build (dist/), or,
// run from the sources, from esbuild in memory at the first request, once per process (consoleBundle.ts).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import type { Logger } from 'pino';
import { allowOnly, READ_METHODS } from '../http/errorResponses.js';
import { consolePagePolicy } from '../ops/headers.js';
import { bundleConsole, type ConsoleFiles, canBundleConsole } from './consoleBundle.js';
import { escapeHtml } from './html.js';

/** Where npm run build writes the console's bundle (absent when running from the sources). */
const BUILT_FILES = fileURLToPath(new URL('./console/', import.meta.url));
const ASSET_MAX_AGE_MS = 365 * 24 * 60 * 60 * 1000;

interface ConsoleAsset {
  url: string;
  bytes: Uint8Array;
  contentType: string;
}

interface ServedConsole {
  html: string;
  assets: Map<string, ConsoleAsset>;
}

function assetOf(name: 'console.js' | 'console.css', bytes: Uint8Array): ConsoleAsset {
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  const [stem, extension] = name.split('.') as [string, string];
  return {
    url: `/console/assets/${stem}.${hash}.${extension}`,
    bytes,
    contentType: extension === 'js' ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
  };
}

/** The page: no inline script, no data; the script learns only whether the sandbox view exists. */
function servedConsole(files: ConsoleFiles, options: { production: boolean }): ServedConsole {
  const script = assetOf('console.js', files.script);
  const stylesheet = assetOf('console.css', files.stylesheet);
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Console: device-financing service</title>',
    '<link rel="icon" href="data:,">',
    `<link rel="stylesheet" href="${escapeHtml(stylesheet.url)}">`,
    '</head>',
    '<body>',
    `<div id="console" data-sandbox="${!options.production}"><noscript><p>The console needs JavaScript.</p></noscript></div>`,
    `<script src="${escapeHtml(script.url)}"></script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
  const assets = new Map([script, stylesheet].map((asset) => [asset.url.slice('/console/assets/'.length), asset]));
  return { html, assets };
}

/** The console's files: the build's, else a bundle made once when first asked for; null if neither can be. */
function consoleFilesSource(logger: Logger): (() => Promise<ConsoleFiles>) | null {
  const script = join(BUILT_FILES, 'console.js');
  if (existsSync(script)) {
    const built = { script: readFileSync(script), stylesheet: readFileSync(join(BUILT_FILES, 'console.css')) };
    return () => Promise.resolve(built);
  }
  if (!canBundleConsole()) {
    logger.warn(
      'the console is not built and esbuild is not installed (a production install leaves it out): /console is not served; npm run build builds it',
    );
    return null;
  }
  return bundleConsole;
}

/** /console and its files; null when they cannot be served (said once in the log). */
export function createConsoleRouter(options: { production: boolean; logger: Logger }): Router | null {
  const files = consoleFilesSource(options.logger);
  if (!files) return null;
  let served: Promise<ServedConsole> | null = null;
  const consoleServed = () => {
    served ??= files().then(
      (bundle) => servedConsole(bundle, options),
      (error: unknown) => {
        served = null;
        throw error;
      },
    );
    return served;
  };
  const router = express.Router();
  router
    .route('/console')
    .get(consolePagePolicy(), async (_req, res) => {
      const { html } = await consoleServed();
      res.set('Cache-Control', 'no-store').type('html').send(html);
    })
    .all(allowOnly('/console', READ_METHODS));
  router
    .route('/console/assets/:file')
    .get(async (req, res, next) => {
      const asset = (await consoleServed()).assets.get(String(req.params.file));
      if (!asset) return next(); // the service's 404
      res
        .set('Cache-Control', `public, max-age=${ASSET_MAX_AGE_MS / 1000}, immutable`)
        .type(asset.contentType)
        .send(Buffer.from(asset.bytes));
    })
    .all(allowOnly('/console/assets', READ_METHODS));
  return router;
}
