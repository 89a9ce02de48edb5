// Payment vendors on the graph: buying access tokens with an API key (createAccessToken, viewer), and
// who may notify (createPaymentNotification's credentials, a token bound to its vendor). Recording,
// idempotency and refusals of createPaymentNotification are test/graph/graph-vendor-notifications.test.ts.
// Every refusal is checked to leave the database exactly as it was.
import { describe, expect, it } from 'vitest';
import { DEMO_DEVICE_IMEI, DEMO_DEVICE_TAG, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { hashApiKey } from '../../src/modules/auth/keys.js';
import { issueAccessToken } from '../../src/modules/auth/tokens.js';
import { TEST_TOKENS } from '../support/service.js';
import {
  bearer,
  buyToken,
  CREATE_TOKEN,
  db,
  demoVendorKeyId,
  expectRecorded,
  expectRefused,
  NOTIFY,
  OPERATOR,
  service,
  snapshot,
  useVendorService,
  VIEWER,
} from '../support/vendorGraph.js';

useVendorService();

describe('createAccessToken', () => {
  it('trades a vendor key or an operator key for a Bearer token that lasts an hour, with no other credential', async () => {
    for (const apiKey of ['demo-vendor-key', 'demo-operator-key', 'other-vendor-key']) {
      const before = Math.floor(Date.now() / 1000);
      const { status, body } = await service().graphql(CREATE_TOKEN, {}, { apiKey });
      const after = Math.floor(Date.now() / 1000);
      expect(status).toBe(200);
      expect(body.errors).toBeUndefined();
      const token = body.data.createAccessToken;
      expect(token.tokenType).toBe('Bearer');
      expect(token.expiresIn).toBe(3600);
      expect(token.accessToken).toMatch(/^dfs1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      expect(token.expiresAt).toBeGreaterThanOrEqual(before + 3600);
      expect(token.expiresAt).toBeLessThanOrEqual(after + 3600);
    }
  });

  it('refuses an empty key as missing, an unknown key as not valid, and partner and retail keys as not authorized to buy tokens', async () => {
    // The token route's rule, held by the graph: POST /payments/v1/token passes its body's apiKey here.
    const empty = (await service().graphql(CREATE_TOKEN, {}, { apiKey: '' })).body;
    expect(empty.data).toBeNull();
    expect(empty.errors[0]).toMatchObject({
      message: 'the action is not authorized: apiKey is a required field',
      extensions: { code: 'MISSING_API_KEY' },
    });
    const unknown = (await service().graphql(CREATE_TOKEN, {}, { apiKey: 'no-such-key' })).body;
    expect(unknown.data).toBeNull();
    expect(unknown.errors[0].extensions.code).toBe('INVALID_API_KEY');
    expect(unknown.errors[0].message).toBe(
      'the action is not authorized: the API key is not valid (unknown, revoked or expired)',
    );
    // The caller holds a working key, so saying why it cannot buy a token reveals nothing new.
    for (const apiKey of ['demo-partner-key', 'demo-retail-key', 'other-partner-key']) {
      const { body } = await service().graphql(CREATE_TOKEN, {}, { apiKey });
      expect(body.data).toBeNull();
      expect(body.errors[0].extensions.code).toBe('INVALID_API_KEY');
      expect(body.errors[0].message).toBe(
        'the action is not authorized: partner and retail keys are used directly; only vendor and operator keys buy access tokens',
      );
    }
  });
});

describe('viewer with an access token', () => {
  it('is the vendor, via an access token', async () => {
    const token = await buyToken('demo-vendor-key');
    expect((await service().graphql(VIEWER, bearer(token))).body).toEqual({
      data: {
        viewer: {
          kind: 'VENDOR',
          keyKind: 'VENDOR',
          viaAccessToken: true,
          partner: null,
          paymentVendor: { name: 'demo-vendor', displayName: 'Demo Vendor' },
        },
      },
    });
    // The key itself, for comparison: the same vendor, not via a token.
    expect((await service().graphql(VIEWER, { 'x-api-key': 'demo-vendor-key' })).body.data.viewer).toEqual({
      kind: 'VENDOR',
      keyKind: 'VENDOR',
      viaAccessToken: false,
      partner: null,
      paymentVendor: { name: 'demo-vendor', displayName: 'Demo Vendor' },
    });
    const otherToken = await buyToken('other-vendor-key');
    expect((await service().graphql(VIEWER, bearer(otherToken))).body.data.viewer.paymentVendor).toEqual({
      name: 'other-vendor',
      displayName: 'Other Vendor',
    });
    const operatorToken = await buyToken('demo-operator-key');
    expect((await service().graphql(VIEWER, bearer(operatorToken))).body.data.viewer).toEqual({
      kind: 'OPERATOR',
      keyKind: 'OPERATOR',
      viaAccessToken: true,
      partner: null,
      paymentVendor: null,
    });
  });
});

describe('createPaymentNotification: credentials', () => {
  const body = (reference: string) => ({
    paymentVendor: 'demo-vendor',
    amount: '1.00',
    currency: 'USD',
    reference,
    deviceTag: DEMO_DEVICE_TAG,
  });

  /** `beforeExecution`: a credential not valid refuses the whole request (401, no data); else the field fails (200, data null). */
  async function refusedWith(
    headers: Record<string, string>,
    code: string,
    reference: string,
    beforeExecution = false,
  ) {
    const before = await snapshot();
    const { status, body: response } = await service().graphql(NOTIFY, headers, { notification: body(reference) });
    if (beforeExecution) {
      expect(status).toBe(401);
      expect(response).not.toHaveProperty('data');
    } else {
      expect(status).toBe(200);
      expect(response.data).toEqual({ createPaymentNotification: null });
    }
    expect(response.errors[0].extensions.code).toBe(code);
    expect(await snapshot()).toEqual(before);
    return response.errors[0] as { message: string };
  }

  it('needs a credential: without one it is 401 at the door, before validation', async () => {
    await refusedWith({}, 'MISSING_API_KEY', 'CRED-NONE', true);
  });

  it('needs an access token, not the vendor API key itself', async () => {
    for (const headers of [bearer('demo-vendor-key'), { 'x-api-key': 'demo-vendor-key' }]) {
      const error = await refusedWith(headers, 'INVALID_ACCESS_TOKEN', 'CRED-KEY');
      expect(error.message).toContain('an access token is required');
    }
  });

  it('refuses a token whose signature was changed', async () => {
    const token = await buyToken('demo-vendor-key');
    const [version, claims, signature] = token.split('.') as [string, string, string];
    // Change the first character: the last one of a base64url HMAC carries padding bits.
    const tampered = `${version}.${claims}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect(tampered).not.toBe(token);
    const error = await refusedWith(bearer(tampered), 'INVALID_ACCESS_TOKEN', 'CRED-TAMPERED', true);
    expect(error.message).toContain('signature');
    // Claims re-encoded for another key without the secret fail the same way.
    const forgedClaims = Buffer.from(
      JSON.stringify({ k: '1', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600 }),
    ).toString('base64url');
    await refusedWith(bearer(`${version}.${forgedClaims}.${signature}`), 'INVALID_ACCESS_TOKEN', 'CRED-FORGED', true);
  });

  it('refuses an expired token, and accepts one minted the same way that is still valid', async () => {
    const keyId = await demoVendorKeyId();
    const expired = issueAccessToken(TEST_TOKENS, keyId, new Date(Date.now() - 2 * 3600 * 1000)).token;
    const error = await refusedWith(bearer(expired), 'INVALID_ACCESS_TOKEN', 'CRED-EXPIRED', true);
    expect(error.message).toContain('expired');

    const fresh = issueAccessToken(TEST_TOKENS, keyId, new Date()).token;
    await expectRecorded(fresh, body('CRED-FRESH'), {
      orderId: Number(DEMO_ORDER_ID),
      amountMinor: 100n,
      deviceTag: DEMO_DEVICE_TAG,
      currency: 'USD',
      vendor: 'demo-vendor',
    });
  });

  it('refuses a token signed with another secret', async () => {
    const keyId = await demoVendorKeyId();
    const foreign = issueAccessToken(
      { signingKeys: [{ id: 'test', secret: 'another-secret-of-at-least-32-characters' }], ttlSeconds: 3600 },
      keyId,
      new Date(),
    ).token;
    await refusedWith(bearer(foreign), 'INVALID_ACCESS_TOKEN', 'CRED-FOREIGN', true);
  });

  it("forbids partner and retail keys, and an operator's token", async () => {
    await refusedWith({ 'x-api-key': 'demo-partner-key' }, 'FORBIDDEN', 'CRED-PARTNER');
    await refusedWith(bearer('demo-retail-key'), 'FORBIDDEN', 'CRED-RETAIL');
    await refusedWith(bearer(await buyToken('demo-operator-key')), 'FORBIDDEN', 'CRED-OPERATOR');
  });

  it('stops a token at once when its key is revoked; the revoked key buys no token', async () => {
    const vendor = await db()('payment_vendors').where({ name: 'demo-vendor' }).first('id');
    const created = await service().graphql(
      `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret apiKey { id kind paymentVendor { name } } } }`,
      OPERATOR,
      { input: { kind: 'VENDOR', paymentVendorId: vendor.id, label: 'revocation test' } },
    );
    expect(created.body.errors).toBeUndefined();
    const { secret, apiKey } = created.body.data.createApiKey;
    expect(apiKey.paymentVendor).toEqual({ name: 'demo-vendor' });
    const token = await buyToken(secret);
    await expectRecorded(token, body('CRED-BEFORE-REVOKE'), {
      orderId: Number(DEMO_ORDER_ID),
      amountMinor: 100n,
      deviceTag: DEMO_DEVICE_TAG,
      currency: 'USD',
      vendor: 'demo-vendor',
    });

    const revoked = await service().graphql('mutation ($id: ID!) { revokeApiKey(id: $id) { id active } }', OPERATOR, {
      id: apiKey.id,
    });
    expect(revoked.body.data.revokeApiKey).toEqual({ id: apiKey.id, active: false });

    const error = await refusedWith(bearer(token), 'INVALID_ACCESS_TOKEN', 'CRED-AFTER-REVOKE', true);
    expect(error.message).toContain('revoked');
    const again = await service().graphql(CREATE_TOKEN, {}, { apiKey: secret });
    expect(again.body.errors[0].extensions.code).toBe('INVALID_API_KEY');
    // The vendor's other key is untouched.
    await expectRecorded(await buyToken('demo-vendor-key'), body('CRED-OTHER-KEY'), {
      orderId: Number(DEMO_ORDER_ID),
      amountMinor: 100n,
      deviceTag: DEMO_DEVICE_TAG,
      currency: 'USD',
      vendor: 'demo-vendor',
    });
  });

  it('treats an expired key like a revoked one: no new token, and its tokens stop', async () => {
    const vendor = await db()('payment_vendors').where({ name: 'demo-vendor' }).first('id');
    const created = await service().graphql(
      `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret apiKey { id } } }`,
      OPERATOR,
      { input: { kind: 'VENDOR', paymentVendorId: vendor.id, label: 'expiry test' } },
    );
    const { secret, apiKey } = created.body.data.createApiKey;
    const token = await buyToken(secret);
    await db()('api_keys')
      .where({ id: apiKey.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await refusedWith(bearer(token), 'INVALID_ACCESS_TOKEN', 'CRED-KEY-EXPIRED', true);
    const again = await service().graphql(CREATE_TOKEN, {}, { apiKey: secret });
    expect(again.body.errors[0].extensions.code).toBe('INVALID_API_KEY');
  });

  it('stops the token of a key revoked directly in the database', async () => {
    const token = await buyToken('demo-vendor-key');
    const key = () => db()('api_keys').where({ key_hash: hashApiKey('demo-vendor-key') });
    await key().update({ revoked_at: new Date() });
    try {
      await refusedWith(bearer(token), 'INVALID_ACCESS_TOKEN', 'CRED-DB-REVOKED', true);
    } finally {
      await key().update({ revoked_at: null });
    }
    await expectRecorded(token, body('CRED-DB-RESTORED'), {
      orderId: Number(DEMO_ORDER_ID),
      amountMinor: 100n,
      deviceTag: DEMO_DEVICE_TAG,
      currency: 'USD',
      vendor: 'demo-vendor',
    });
  });

  it('forbids a disabled vendor, and records again once it is enabled', async () => {
    const schema = (await db()('payment_vendors').where({ name: 'demo-vendor' }).first('request_schema'))
      .request_schema;
    const vendor = await service().graphql(
      `mutation ($input: CreatePaymentVendorInput!) { createPaymentVendor(input: $input) { id name enabled } }`,
      OPERATOR,
      { input: { name: 'switchable-vendor', displayName: 'Switchable Vendor', requestSchema: schema } },
    );
    expect(vendor.body.errors).toBeUndefined();
    const vendorId = vendor.body.data.createPaymentVendor.id;
    const key = await service().graphql(
      `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret } }`,
      OPERATOR,
      { input: { kind: 'VENDOR', paymentVendorId: vendorId } },
    );
    const token = await buyToken(key.body.data.createApiKey.secret);
    const notification = {
      paymentVendor: 'switchable-vendor',
      amount: '1.00',
      currency: 'USD',
      reference: 'CRED-DISABLED',
      deviceTag: DEMO_DEVICE_TAG,
    };

    const setEnabled = async (enabled: boolean) => {
      const result = await service().graphql(
        `mutation ($input: UpdatePaymentVendorInput!) { updatePaymentVendor(input: $input) { name enabled } }`,
        OPERATOR,
        { input: { id: vendorId, enabled } },
      );
      expect(result.body.data.updatePaymentVendor).toEqual({ name: 'switchable-vendor', enabled });
    };
    await setEnabled(false);
    const error = await expectRefused(token, notification, 'FORBIDDEN');
    expect(error.message).toContain('disabled');
    await setEnabled(true);
    await expectRecorded(token, notification, {
      orderId: Number(DEMO_ORDER_ID),
      amountMinor: 100n,
      deviceTag: DEMO_DEVICE_TAG,
      currency: 'USD',
      vendor: 'switchable-vendor',
    });
  });
});

describe('createPaymentNotification: a token is bound to its vendor', () => {
  it("forbids other-vendor's token to notify as demo-vendor", async () => {
    const token = await buyToken('other-vendor-key');
    const error = await expectRefused(
      token,
      {
        paymentVendor: 'demo-vendor',
        amount: '1.00',
        currency: 'USD',
        reference: 'BOUND-1',
        deviceTag: DEMO_DEVICE_TAG,
      },
      'FORBIDDEN',
    );
    expect(error.message).toContain('other-vendor');
  });

  it("checks other-vendor's notifications against its own schema, which requires deviceTag", async () => {
    const token = await buyToken('other-vendor-key');
    const error = await expectRefused(
      token,
      {
        paymentVendor: 'other-vendor',
        amount: '1.00',
        currency: 'USD',
        reference: 'BOUND-IMEI',
        imei: DEMO_DEVICE_IMEI,
      },
      'INVALID_NOTIFICATION',
    );
    expect(error.message).toContain('deviceTag is a required field');
    // The same body is acceptable to demo-vendor's schema.
    await expectRecorded(
      await buyToken('demo-vendor-key'),
      {
        paymentVendor: 'demo-vendor',
        amount: '1.00',
        currency: 'USD',
        reference: 'BOUND-IMEI',
        imei: DEMO_DEVICE_IMEI,
      },
      {
        orderId: Number(DEMO_ORDER_ID),
        amountMinor: 100n,
        deviceTag: DEMO_DEVICE_TAG,
        currency: 'USD',
        vendor: 'demo-vendor',
      },
    );
  });
});
