import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from './post.js';

// A receiver that redirects, answers 2xx with a large body, or never answers.
let server: http.Server;
let base: string;
let hits: string[];
beforeAll(async () => {
  hits = [];
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/redirect') res.writeHead(302, { location: '/landed' }).end();
    else if (req.url === '/large') res.writeHead(200).end('y'.repeat(1_000_000));
    else if (req.url === '/silent') return;
    else res.writeHead(204).end();
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const request = { body: '{}', headers: { 'content-type': 'application/json' } };
// A receiver that answers is given as long as a test may take (a busy machine can hold a first post
// past 300 ms); the one that never answers is given 300 ms.
const options = { timeoutMs: 60_000, rules: { production: false, allowedPorts: [443] }, now: () => new Date() };
const production = { production: true, allowedPorts: [443] };

describe('postWebhook', () => {
  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const outcome = await postWebhook(`${base}/redirect`, request, options);
    expect(outcome).toMatchObject({ statusCode: 302, delivered: false });
    expect(hits).not.toContain('/landed');
  });

  it("keeps the first 1 kB of a receiver's answer", async () => {
    const outcome = await postWebhook(`${base}/large`, request, options);
    expect(outcome).toMatchObject({ statusCode: 200, delivered: true, response: 'y'.repeat(1024) });
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    const outcome = await postWebhook(`${base}/silent`, request, { ...options, timeoutMs: 300 });
    expect(outcome).toMatchObject({ statusCode: null, delivered: false, error: 'no answer within 300 ms' });
  });

  it('refuses, in production, to post to an address of this network or a port not allowed', async () => {
    const outcome = await postWebhook(`${base}/ok`, request, { ...options, rules: production });
    expect(outcome).toMatchObject({ statusCode: null, delivered: false, error: 'the URL is not https://' });
    const https = await postWebhook('https://127.0.0.1/ok', request, { ...options, rules: production });
    expect(https.error).toBe('the host is not a public address');
    const port = await postWebhook('https://127.0.0.1:1/ok', request, { ...options, rules: production });
    expect(port.error).toBe('port 1 is not allowed (443: WEBHOOK_ALLOWED_PORTS)');
    const allowed = await postWebhook('https://127.0.0.1:8443/ok', request, {
      ...options,
      rules: { production: true, allowedPorts: [443, 8443] },
    });
    expect(allowed.error).toBe('the host is not a public address');
    expect(hits).not.toContain('/ok');
  });
});
