import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseLosslessJson } from '../../kernel/losslessJson.js';
import { fingerprintPaymentRequest, type PaymentRequestForm, requireIdempotencyKey } from './idempotency.js';

const ids = { merchant: '851005', clerk: '5335', order: '4000004' };
const hashOf = (request: PaymentRequestForm) => fingerprintPaymentRequest(request, request).hash;

describe('fingerprintPaymentRequest: the one rule of sameness', () => {
  it('counts the amount by its value in minor units: 18, 18.0 and 18.00 are one request', () => {
    const hashes = ['18', '18.0', '18.00'].map((amount) => hashOf({ ...ids, amount, currency: 'USD' }));
    expect(new Set(hashes).size).toBe(1);
    expect(hashOf({ ...ids, amount: '18.01', currency: 'USD' })).not.toBe(hashes[0]);
    expect(hashOf({ ...ids, amount: '18', currency: 'MXN' })).not.toBe(hashes[0]);
  });

  it('ignores member order, and compares other numbers by exact value', () => {
    const body = (text: string) => parseLosslessJson(text) as Record<string, unknown>;
    const a = body('{"paymentVendor":"v","extra":{"n":1.50,"m":[1]},"reference":"r"}');
    const b = body('{"reference":"r","extra":{"m":[1.0],"n":15e-1},"paymentVendor":"v"}');
    const c = body('{"reference":"r","extra":{"m":[1.0],"n":1.5000000000000001},"paymentVendor":"v"}');
    const form = (fields: Record<string, unknown>) => ({ ...fields, amount: '5', currency: 'USD' });
    expect(hashOf(form(a))).toBe(hashOf(form(b)));
    expect(hashOf(form(a))).not.toBe(hashOf(form(c)));
  });

  it('is versioned, and keeps the hash the service stored before it', () => {
    const request = { ...ids, amount: '18.00', currency: 'USD' };
    const before = { ...ids, amount: '18', currency: 'USD' };
    const fingerprint = fingerprintPaymentRequest(request, before);
    expect(fingerprint.hash).toMatch(/^v2:[0-9a-f]{64}$/);
    // Before: sha256 of the request with keys sorted.
    const sorted = `{${Object.keys(before)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${JSON.stringify(before[key as keyof typeof before])}`)
      .join(',')}}`;
    expect(fingerprint.legacyHash).toBe(createHash('sha256').update(sorted).digest('hex'));
  });
});

describe('requireIdempotencyKey: the one rule of a key', () => {
  it('takes 1 to 255 printable ASCII characters, and no key at all', () => {
    expect(requireIdempotencyKey(null)).toBeNull();
    expect(requireIdempotencyKey(undefined)).toBeNull();
    expect(requireIdempotencyKey('!')).toBe('!');
    expect(requireIdempotencyKey('~'.repeat(255))).toBe('~'.repeat(255));
  });

  it('refuses the empty key, a space, a control or non-ASCII character, and 256 characters', () => {
    for (const key of ['', 'pos 1', 'pos\t1', 'pos-é', 'x'.repeat(256)]) {
      expect(() => requireIdempotencyKey(key)).toThrow(
        expect.objectContaining({
          extensions: expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'idempotencyKey' }),
        }),
      );
    }
  });
});
