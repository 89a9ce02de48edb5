import { once } from 'node:events';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInternalAddress, refusedDestination, requireWebhookUrl } from './destinations.js';
import { publicOnlyDispatcher, type Resolver } from './dispatcher.js';
import { postWebhook } from './post.js';

const PRODUCTION = { production: true, allowedPorts: [443] };
const LOCAL = { production: false, allowedPorts: [443] };

/** Every IPv6 form that embeds or translates an IPv4 address, with loopback and the metadata address inside. */
const EMBEDDING_IPV4 = [
  '::ffff:127.0.0.1', // IPv4-mapped
  '::ffff:7f00:1',
  '::ffff:a9fe:a9fe', // 169.254.169.254 mapped
  '::ffff:808:808', // mapped, even of a public address
  '::7f00:1', // IPv4-compatible
  '::a9fe:a9fe',
  '::ffff:0:7f00:1', // SIIT
  '::ffff:0:a9fe:a9fe',
  '64:ff9b::7f00:1', // NAT64
  '64:ff9b::a9fe:a9fe',
  '64:ff9b:1::7f00:1', // local-use NAT64
  '64:ff9b:1:ffff::a9fe:a9fe',
  '2002:7f00:1::1', // 6to4
  '2002:a9fe:a9fe::',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
  '2001::a9fe:a9fe',
];

describe('webhook destinations', () => {
  it('knows the addresses of this network from public ones', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1']) {
      expect(isInternalAddress(address), address).toBe(true);
    }
    for (const address of ['fe80::1', 'fe80::1%eth0', 'fd00::1', '100.64.0.1', '::', 'ff02::1', 'not an address']) {
      expect(isInternalAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:80e::200e']) {
      expect(isInternalAddress(address), address).toBe(false);
    }
  });

  it('refuses every IPv6 form that embeds or translates an IPv4 address', () => {
    for (const address of EMBEDDING_IPV4) expect(isInternalAddress(address), address).toBe(true);
  });

  it('refuses the reserved and documentation ranges', () => {
    for (const address of [
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.9',
      '198.18.0.1',
      '240.0.0.1',
      '255.255.255.255',
      '224.0.0.1',
      '2001:db8::1',
      '3fff::1',
      '100::1',
      'fec0::1',
      '5f00::1',
      '2001:2::1',
    ]) {
      expect(isInternalAddress(address), address).toBe(true);
    }
  });

  it('wants https in production, and allows http://127.0.0.1 elsewhere', () => {
    expect(requireWebhookUrl('input.url', 'http://127.0.0.1:8080/hook', LOCAL)).toBe('http://127.0.0.1:8080/hook');
    expect(() => requireWebhookUrl('input.url', 'http://example.com/hook', PRODUCTION)).toThrow(
      'must be an https:// URL',
    );
    expect(() => requireWebhookUrl('input.url', 'https://user:pw@example.com/', PRODUCTION)).toThrow(
      'user name or password',
    );
    expect(() => requireWebhookUrl('input.url', 'not a url', LOCAL)).toThrow('is not a URL');
  });

  it('allows in production only port 443, unless WEBHOOK_ALLOWED_PORTS names more', () => {
    expect(requireWebhookUrl('input.url', 'https://example.com/hook', PRODUCTION)).toBe('https://example.com/hook');
    expect(requireWebhookUrl('input.url', 'https://example.com:443/hook', PRODUCTION)).toBe('https://example.com/hook');
    for (const url of ['https://example.com:22/', 'https://example.com:6379/', 'https://example.com:8443/']) {
      expect(() => requireWebhookUrl('input.url', url, PRODUCTION), url).toThrow(/port \d+ is not allowed/);
    }
    const more = { production: true, allowedPorts: [443, 8443] };
    expect(requireWebhookUrl('input.url', 'https://example.com:8443/hook', more)).toBe('https://example.com:8443/hook');
    expect(requireWebhookUrl('input.url', 'http://127.0.0.1:6379/', LOCAL)).toBe('http://127.0.0.1:6379/');
  });

  it('refuses, in production, a host that is or resolves to an internal address, naming no address', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::7f00:1]/hook',
      'https://[64:ff9b:1::a9fe:a9fe]/hook',
      'https://localhost/hook',
    ]) {
      expect(await refusedDestination(url, PRODUCTION), url).toBe('the host is not a public address');
    }
    expect(await refusedDestination('https://nothing-here.invalid/hook', PRODUCTION)).toBe('the host does not resolve');
    expect(await refusedDestination('https://93.184.216.34/hook', PRODUCTION)).toBeNull();
    expect(await refusedDestination('https://93.184.216.34:8080/hook', PRODUCTION)).toMatch(/port 8080 is not allowed/);
    expect(await refusedDestination('http://127.0.0.1/hook', LOCAL)).toBeNull();
  });
});

// Through the dispatcher deliveries are posted with: the check made where the connection is made.
describe('the delivery dispatcher', () => {
  let server: http.Server;
  let port: number;
  let hits: number;
  beforeAll(async () => {
    hits = 0;
    server = http.createServer((_req, res) => {
      hits++;
      res.writeHead(204).end();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const request = { body: '{}', headers: { 'content-type': 'application/json' } };
  // Plain http to the local server: the connection's check is what is tested (the scheme rule is refusedUrl's).
  const rules = { production: false, allowedPorts: [443] };
  const post = (url: string, resolve: Resolver) =>
    postWebhook(url, request, {
      timeoutMs: 2000,
      rules,
      now: () => new Date(),
      dispatcher: publicOnlyDispatcher(resolve),
    });
  const answering = (...answers: string[][]): Resolver & { asked: number } => {
    const resolver = Object.assign(
      async () => {
        const addresses = answers[Math.min(resolver.asked, answers.length - 1)]!;
        resolver.asked++;
        return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      },
      { asked: 0 },
    );
    return resolver;
  };

  it('refuses to connect to an internal address a name resolves to, saying only that', async () => {
    const outcome = await post(`http://receiver.test:${port}/hook`, answering(['127.0.0.1']));
    expect(outcome).toMatchObject({ statusCode: null, delivered: false, error: 'the host is not a public address' });
    expect(hits).toBe(0);
  });

  it('refuses every IPv6 form that embeds or translates an IPv4 address, as a name answer and as a URL literal', async () => {
    for (const address of EMBEDDING_IPV4) {
      const named = await post(`http://receiver.test:${port}/hook`, answering([address]));
      expect(named.error, address).toBe('the host is not a public address');
      const literal = await post(`http://[${address}]:${port}/hook`, answering([]));
      expect(literal.error, address).toBe('the host is not a public address');
    }
    // A name with a public address beside an internal one is refused too.
    const mixed = await post(`http://receiver.test:${port}/hook`, answering(['93.184.216.34', '::ffff:7f00:1']));
    expect(mixed.error).toBe('the host is not a public address');
    expect(hits).toBe(0);
  });

  it('says "does not resolve" of a name without an address, and nothing more', async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND 10.0.0.7'), { code: 'ENOTFOUND' });
    };
    expect((await post(`http://receiver.test:${port}/hook`, failing)).error).toBe('the host does not resolve');
    expect((await post(`http://receiver.test:${port}/hook`, answering([]))).error).toBe('the host does not resolve');
  });

  it('checks the answer the connection uses: public to a check, internal to the connection, refused', async () => {
    // The first answer (a check made beforehand) is public; the second, the connection's own, is loopback.
    const rebinding = answering(['93.184.216.34'], ['127.0.0.1']);
    expect(isInternalAddress((await rebinding('receiver.test'))[0]!.address)).toBe(false);
    const outcome = await post(`http://receiver.test:${port}/hook`, rebinding);
    expect(rebinding.asked).toBe(2);
    expect(outcome).toMatchObject({ statusCode: null, delivered: false, error: 'the host is not a public address' });
    expect(hits).toBe(0);
  });

  it('connects where the check allowed (the server here stands in for a public one)', async () => {
    // A dispatcher whose resolver answers loopback is refused; the same server reached through a plain
    // connection answers: what refused above was the check, not the server.
    const outcome = await postWebhook(`http://127.0.0.1:${port}/hook`, request, {
      timeoutMs: 2000,
      rules,
      now: () => new Date(),
    });
    expect(outcome).toMatchObject({ statusCode: 204, delivered: true });
    expect(hits).toBe(1);
  });
});
