import { describe, expect, it } from 'vitest';
import { isInternalAddress, refusedDestination, requireWebhookUrl } from './destinations.js';

describe('webhook destinations', () => {
  it('knows the addresses of this network from public ones', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1']) {
      expect(isInternalAddress(address), address).toBe(true);
    }
    for (const address of ['fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:a00:1', '100.64.0.1']) {
      expect(isInternalAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:808:808']) {
      expect(isInternalAddress(address), address).toBe(false);
    }
  });

  it('wants https in production, and allows http://127.0.0.1 elsewhere', () => {
    expect(requireWebhookUrl('input.url', 'http://127.0.0.1:8080/hook', false)).toBe('http://127.0.0.1:8080/hook');
    expect(() => requireWebhookUrl('input.url', 'http://example.com/hook', true)).toThrow('must be an https:// URL');
    expect(() => requireWebhookUrl('input.url', 'https://user:pw@example.com/', true)).toThrow('user name or password');
    expect(() => requireWebhookUrl('input.url', 'not a url', false)).toThrow('is not a URL');
  });

  it('refuses, in production, a host that is or resolves to an internal address', async () => {
    expect(await refusedDestination('https://127.0.0.1/hook', true)).toMatch(/not public \(127\.0\.0\.1\)/);
    expect(await refusedDestination('https://[::1]/hook', true)).toMatch(/not public/);
    expect(await refusedDestination('https://[::ffff:127.0.0.1]/hook', true)).toMatch(/not public/);
    expect(await refusedDestination('https://localhost/hook', true)).toMatch(/not public/);
    expect(await refusedDestination('https://93.184.216.34/hook', true)).toBeNull();
    expect(await refusedDestination('http://127.0.0.1/hook', false)).toBeNull();
  });
});
