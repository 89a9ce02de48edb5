// The pages' HTML, rendered on the server from constants and the service's own settings: no template
// engine, every interpolated value escaped. No page carries an inline script: what runs is a served
// file (the Content-Security-Policy allows scripts from 'self' only), and what a script needs to know
// is handed over in data-* attributes.
import { type AssetName, pageAsset } from './assets.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or an attribute value, safe inside HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

/** What a page loads besides its HTML: the router serves exactly the assets of the pages it has. */
export interface PageAssets {
  stylesheets: readonly AssetName[];
  /** Run in this order once the body is parsed. */
  scripts: readonly AssetName[];
}

export const LANDING_ASSETS: PageAssets = { stylesheets: ['pages.css'], scripts: [] };
export const DOCS_ASSETS: PageAssets = {
  stylesheets: ['swagger-ui.css', 'pages.css'],
  scripts: ['swagger-ui.js', 'docs.js'],
};
export const GRAPHIQL_ASSETS: PageAssets = {
  stylesheets: ['graphiql.css', 'pages.css'],
  scripts: ['react.js', 'react-dom.js', 'graphql-ws.js', 'graphiql.js', 'graphiql-page.js'],
};

export const assetsOf = (page: PageAssets): AssetName[] => [...page.stylesheets, ...page.scripts];

export function renderPage(page: PageAssets & { title: string; body: string; bodyClass?: string }): string {
  const url = (name: AssetName) => escapeHtml(pageAsset(name).url);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(page.title)}</title>`,
    // No /favicon.ico request (the service has none: a 404 would be a console error on every page).
    '<link rel="icon" href="data:,">',
    ...page.stylesheets.map((name) => `<link rel="stylesheet" href="${url(name)}">`),
    '</head>',
    page.bodyClass ? `<body class="${escapeHtml(page.bodyClass)}">` : '<body>',
    page.body,
    ...page.scripts.map((name) => `<script src="${url(name)}"></script>`),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** GET /docs: Swagger UI over /openapi.json; "Try it out" sends requests only outside production. */
export function renderDocsPage(options: { tryItOut: boolean }): string {
  return renderPage({
    ...DOCS_ASSETS,
    title: 'API reference: device-financing service',
    body: `<div id="swagger-ui" data-spec-url="/openapi.json" data-try-it-out="${options.tryItOut}"></div>`,
  });
}

/** GET /graphiql: GraphiQL over /graphql (HTTP for queries and mutations, graphql-ws for subscriptions). */
export function renderGraphiqlPage(options: { headers: Record<string, string> }): string {
  const headers = escapeHtml(JSON.stringify(options.headers, null, 2));
  return renderPage({
    ...GRAPHIQL_ASSETS,
    title: 'GraphiQL: device-financing service',
    bodyClass: 'graphiql',
    body: `<div id="graphiql" data-endpoint="/graphql" data-headers="${headers}">Loading GraphiQL...</div>`,
  });
}
