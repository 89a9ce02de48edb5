// The browser pages over HTTP, no browser needed (test/ops/browser.test.ts runs them in chromium): what /,
// /docs and /graphiql load is all the service's own, under the Content-Security-Policy every other route
// has; the assets are served with long cache lifetimes; the landing page says which demo keys work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageAsset } from '../../src/pages/assets.js';
import { withGraphiqlLink } from '../../src/pages/sandbox.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { useSeededService } from '../support/fixtures.js';
import { startTestService, type TestService } from '../support/service.js';

const fixture = useSeededService();
const service = () => fixture.service;

const PAGES = ['/', '/docs', '/graphiql'];

/** The src and href of every script, stylesheet and link of a page. */
function referencesOf(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
}

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('the pages', () => {
  it('are HTML answered 200, revalidated on each load, with no inline script and nothing from another origin', async () => {
    for (const path of PAGES) {
      const response = await service().request(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const html = await response.text();
      // Every <script> loads a served file: the policy runs no inline code.
      expect(html.match(/<script(?![^>]*\ssrc=")[^>]*>/g), path).toBeNull();
      expect(html).not.toMatch(/\son[a-z]+=/i); // no inline event handlers either
      const references = referencesOf(html).filter((reference) => reference !== 'data:,');
      expect(
        references.filter((reference) => !reference.startsWith('/')),
        path,
      ).toEqual([]);
    }
  });

  it('run under a policy of their own allowing only the service itself, and leave every other route its own', async () => {
    const policyOf = async (path: string) => (await service().request(path)).headers.get('content-security-policy')!;
    const pagePolicy = await policyOf('/');
    for (const path of PAGES) expect(await policyOf(path), path).toBe(pagePolicy);
    expect(Object.fromEntries(directives(pagePolicy))).toEqual({
      'default-src': ["'self'"],
      'base-uri': ["'self'"],
      'font-src': ["'self'", 'data:'],
      'form-action': ["'self'"],
      'frame-ancestors': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'object-src': ["'none'"],
      'script-src': ["'self'"],
      'script-src-attr': ["'none'"],
      'style-src': ["'self'"],
    });
    // Everything else keeps helmet's default (with upgrade-insecure-requests), the pages' assets included.
    const everywhere = await policyOf('/healthz');
    expect(directives(everywhere).has('upgrade-insecure-requests')).toBe(true);
    const docs = await (await service().request('/docs')).text();
    const assets = referencesOf(docs).filter((reference) => reference.startsWith('/assets/'));
    for (const path of [
      '/openapi.json',
      '/readyz',
      '/v1/list-clerks.php?key=demo-partner-key',
      '/nowhere',
      ...assets,
    ]) {
      expect(await policyOf(path), path).toBe(everywhere);
    }
  });

  it('load assets served with a year of caching under names that change with their bytes', async () => {
    const seen = new Set<string>();
    for (const path of PAGES) {
      const html = await (await service().request(path)).text();
      for (const asset of referencesOf(html).filter((reference) => reference.startsWith('/assets/'))) {
        if (seen.has(asset)) continue;
        seen.add(asset);
        expect(asset).toMatch(/^\/assets\/[a-z-]+\.[0-9a-f]{12}\.(js|css)$/);
        const response = await service().request(asset);
        expect(response.status, asset).toBe(200);
        expect(response.headers.get('content-type')).toBe(
          asset.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
        );
        expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(100);
      }
    }
    // Swagger UI and its bootstrap; GraphiQL, React, ReactDOM, graphql-ws and its bootstrap; the pages' styles.
    expect(seen.size).toBe(10);
    expect((await service().request('/assets/graphiql.000000000000.js')).status).toBe(404);
    // Only the table's files: nothing else of node_modules or the disk, by any spelling.
    expect((await service().request('/assets/..%2F..%2F..%2F..%2Fpackage.json')).status).toBe(404);
  });

  it('take GET and HEAD only', async () => {
    for (const path of [...PAGES, pageAsset('docs.js').url]) {
      expect((await service().request(path, { method: 'HEAD' })).status, path).toBe(200);
      const posted = await service().request(path, { method: 'POST' });
      expect(posted.status, path).toBe(405);
      expect(posted.headers.get('allow')).toBe('GET, HEAD');
    }
  });
});

describe('/', () => {
  it('links the pages and endpoints, and lists the demo keys with what each is for', async () => {
    const html = await (await service().request('/')).text();
    const links = referencesOf(html);
    for (const link of ['/docs', '/graphiql', '/graphql', '/openapi.json', '/healthz', '/readyz']) {
      expect(links).toContain(link);
    }
    const keys = [...html.matchAll(/<tr><td><code>([^<]+)<\/code><\/td><td>([^<]+)<\/td><td>([^<]*)<\/td><\/tr>/g)];
    expect(keys.map((row) => [row[1], row[2]])).toEqual([
      ['demo-partner-key', 'partner key of Demo Retail'],
      ['demo-retail-key', 'retail key of Demo Retail'],
      ['other-partner-key', 'partner key of Other Retail'],
      ['other-retail-key', 'retail key of Other Retail'],
      ['demo-vendor-key', 'vendor key of demo-vendor'],
      ['other-vendor-key', 'vendor key of other-vendor'],
      ['demo-operator-key', 'operator key of Operations'],
    ]);
    for (const row of keys) expect(row[3]!.length, row[1]).toBeGreaterThan(40);
  });

  describe('on a database without the demo data, and without a database', () => {
    let database: TestDatabase;
    let bare: TestService;
    beforeAll(async () => {
      database = await createTestDatabase({ seed: false });
      bare = await startTestService(database.db);
    });
    afterAll(async () => {
      await bare?.close();
    });

    it('says no demo key is active, then that the keys could not be read, and still answers 200', async () => {
      const empty = await bare.request('/');
      expect(empty.status).toBe(200);
      const emptyHtml = await empty.text();
      expect(emptyHtml).toContain('No demo key is active on this database');
      expect(emptyHtml).not.toContain('<table');
      await database.destroy();
      const down = await bare.request('/');
      expect(down.status).toBe(200);
      expect(await down.text()).toContain('The demo keys could not be read');
    });
  });
});

describe('/graphiql', () => {
  it('points GraphiQL at /graphql with the demo partner key in its headers', async () => {
    const html = await (await service().request('/graphiql')).text();
    expect(html).toContain('data-endpoint="/graphql"');
    const headers = /data-headers="([^"]*)"/.exec(html)![1]!.replace(/&quot;/g, '"');
    expect(JSON.parse(headers)).toEqual({ 'X-Api-Key': 'demo-partner-key' });
  });
});

describe('/graphql in a browser (Apollo Sandbox, from Apollo CDN)', () => {
  it("links GraphiQL in the note Apollo's page shows offline, and still loads Sandbox", async () => {
    const response = await service().request('/graphql', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    const html = await response.text();
    const note = /<div class="fallback">([\s\S]*?)<\/div>/.exec(html)?.[1];
    expect(note).toContain('you might be offline');
    expect(note).toContain('<a href="/graphiql">/graphiql</a>');
    expect(html).toContain('https://embeddable-sandbox.cdn.apollographql.com/');
  });

  it("keeps the link at the top of the page if Apollo's note moves", () => {
    const page = withGraphiqlLink('<html><body>\n<div id="sandbox"></div></body></html>');
    expect(page).toMatch(/^<html><body>\n<p>GraphiQL works offline[^\n]*<a href="\/graphiql">/);
  });
});
