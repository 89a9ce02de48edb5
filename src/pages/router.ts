// The pages a person opens in a browser: GET / (where to start), GET /docs (the REST reference) and,
// outside production, GET /graphiql; with the files they load under /assets/. Every byte comes from
// the service itself: the pages work on a machine without internet.
//
// In production: / (without the demo keys) and /docs are served, /docs read-only (no "Try it out");
// /graphiql is not, as Apollo Sandbox is not: production answers no introspection, so GraphiQL could
// neither show the schema nor complete a query, and the graph is not for browsing there.
import express, { type RequestHandler, type Router } from 'express';
import type { Logger } from 'pino';
import { allowOnly, READ_METHODS } from '../ops/doorErrors.js';
import { browserPagePolicy } from '../ops/headers.js';
import { type Asset, pageAsset } from './assets.js';
import {
  assetsOf,
  DOCS_ASSETS,
  GRAPHIQL_ASSETS,
  LANDING_ASSETS,
  type PageAssets,
  renderDocsPage,
  renderGraphiqlPage,
} from './html.js';
import { type DemoKey, renderLandingPage } from './landing.js';

interface PagesOptions {
  production: boolean;
  /** Outside production: the demo keys active on the database (app.ts reads them from the demo data set). */
  demoKeys?: () => Promise<readonly DemoKey[]>;
  logger: Logger;
}

/** What GraphiQL's headers editor starts with outside production: the demo partner's key. */
const GRAPHIQL_DEMO_HEADERS = { 'X-Api-Key': 'demo-partner-key' };

// The HTML names its assets by hash, so it is revalidated on every load; the assets never change.
const PAGE_CACHE = 'no-cache';
const ASSET_MAX_AGE_MS = 365 * 24 * 60 * 60 * 1000;

function sendHtml(res: express.Response, html: string): void {
  res.set('Cache-Control', PAGE_CACHE).type('html').send(html);
}

function serveAssets(pages: readonly PageAssets[]): RequestHandler {
  const byFile = new Map<string, Asset>();
  for (const name of new Set(pages.flatMap(assetsOf))) {
    const asset = pageAsset(name);
    byFile.set(asset.url.slice('/assets/'.length), asset);
  }
  return (req, res, next) => {
    const asset = byFile.get(String(req.params.file));
    if (!asset) return next(); // the service's 404
    res.sendFile(asset.path, {
      maxAge: ASSET_MAX_AGE_MS,
      immutable: true,
      headers: { 'Content-Type': asset.contentType },
    });
  };
}

/**
 * Whether GraphiQL's files are installed: graphiql and React are devDependencies, so a development
 * start of a production install (npm ci --omit=dev) has none; /graphiql is then not served, said once.
 */
function graphiqlInstalled(logger: Logger): boolean {
  try {
    for (const name of assetsOf(GRAPHIQL_ASSETS)) pageAsset(name);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
    logger.warn(
      'GraphiQL is not installed (a production install leaves it out): /graphiql is not served; npm ci installs it',
    );
    return false;
  }
}

export function createPagesRouter(options: PagesOptions): Router {
  const { production } = options;
  const router = express.Router();
  // GraphiQL's packages are resolved here only outside production: production never loads them.
  const graphiql = !production && graphiqlInstalled(options.logger);
  const pages = graphiql ? [LANDING_ASSETS, DOCS_ASSETS, GRAPHIQL_ASSETS] : [LANDING_ASSETS, DOCS_ASSETS];
  const docsPage = renderDocsPage({ tryItOut: !production });
  // The pages' HTML gets their own policy (ops/headers.ts), replacing the one every answer got before.
  const policy = browserPagePolicy();

  router
    .route('/')
    .get(policy, async (_req, res) => {
      let demoKeys: readonly DemoKey[] | null = [];
      if (!production && options.demoKeys) {
        try {
          demoKeys = await options.demoKeys();
        } catch (error) {
          options.logger.warn({ err: error }, 'the landing page could not read the demo keys');
          demoKeys = null;
        }
      }
      sendHtml(res, renderLandingPage({ production, graphiql, demoKeys }));
    })
    .all(allowOnly('/', READ_METHODS));
  router
    .route('/docs')
    .get(policy, (_req, res) => sendHtml(res, docsPage))
    .all(allowOnly('/docs', READ_METHODS));
  if (graphiql) {
    const graphiqlPage = renderGraphiqlPage({ headers: GRAPHIQL_DEMO_HEADERS });
    router
      .route('/graphiql')
      .get(policy, (_req, res) => sendHtml(res, graphiqlPage))
      .all(allowOnly('/graphiql', READ_METHODS));
  }
  router.route('/assets/:file').get(serveAssets(pages)).all(allowOnly('/assets', READ_METHODS));
  return router;
}
