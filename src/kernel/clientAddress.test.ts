import { describe, expect, it } from 'vitest';
import { clientAddressKey, parseTrustProxy } from './clientAddress.js';

describe('clientAddressKey', () => {
  it('keeps IPv4 addresses, also when IPv4-mapped', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::FFFF:127.0.0.1')).toBe('127.0.0.1');
  });

  it('counts IPv6 addresses by their /64 network', () => {
    expect(clientAddressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
    expect(clientAddressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientAddressKey('64:ff9b::203.0.113.7')).toBe('64:ff9b:0:0::/64');
  });
});

describe('parseTrustProxy', () => {
  it('takes what Express takes, and nothing else', () => {
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('0')).toBe(0);
    expect(parseTrustProxy('uniquelocal,::1,2001:db8::/32')).toEqual(['uniquelocal', '::1', '2001:db8::/32']);
    for (const bad of ['TRUE', 'on', 'proxy.example.com', '10.0.0.1/', '10.0.0.1/8/8', '::1/129', '1.2.3.4/255.0.0']) {
      expect(parseTrustProxy(bad), bad).toBeUndefined();
    }
  });
});
