// Partner and retail key authentication on both doors; revoked and expired keys fail exactly like
// unknown ones.
import { describe, expect, it } from 'vitest';
import { displayPrefix, generateApiKey, hashApiKey } from '../../src/modules/auth/keys.js';
import { useSeededService } from '../support/fixtures.js';
import { statementsDuring } from '../support/statements.js';

const fixture = useSeededService();
const service = () => fixture.service;

const listClerks = (key: string) => service().request(`/v1/list-clerks.php?key=${encodeURIComponent(key)}`);
const keyRow = (key: string) => fixture.database.db('api_keys').where({ key_hash: hashApiKey(key) });

describe('REST key authentication', () => {
  it('treats a revoked key exactly like an unknown one, and a restored key works again', async () => {
    const unknown = await listClerks('no-such-key');
    const unknownBody = await unknown.text();
    expect(unknown.status).toBe(401);

    await keyRow('demo-retail-key').update({ revoked_at: new Date() });
    const revoked = await listClerks('demo-retail-key');
    expect(revoked.status).toBe(401);
    expect(await revoked.text()).toBe(unknownBody);

    await keyRow('demo-retail-key').update({ revoked_at: null });
    expect((await listClerks('demo-retail-key')).status).toBe(200);
  });

  it('treats an expired key like an unknown one; a key expiring later still works', async () => {
    await keyRow('other-retail-key').update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await listClerks('other-retail-key');
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as any).error.code).toBe('INVALID_API_KEY');

    await keyRow('other-retail-key').update({ expires_at: new Date(Date.now() + 3_600_000) });
    expect((await listClerks('other-retail-key')).status).toBe(200);
  });

  it('reads the key from the query string only, not from headers', async () => {
    const response = await service().request('/v1/list-clerks.php', { headers: { 'x-api-key': 'demo-partner-key' } });
    expect(response.status).toBe(401);
    expect(((await response.json()) as any).error.code).toBe('MISSING_API_KEY');
  });

  it('checks the key before the parameters: 401 wins over 400', async () => {
    const response = await service().request('/v1/list-merchants.php?key=nope&key=nope2');
    // A repeated key is malformed input about the credential itself: 400 names it.
    expect(response.status).toBe(400);
    const unauthenticated = await service().request('/v1/list-merchants.php?key=nope&page=1&page=2');
    expect(unauthenticated.status).toBe(401);
  });
});

describe('GraphQL authentication', () => {
  const VIEWER = '{ viewer { kind keyKind partner { name } } }';

  it('accepts X-Api-Key and Authorization: Bearer', async () => {
    expect((await service().graphql(VIEWER, { 'x-api-key': 'demo-partner-key' })).body).toEqual({
      data: { viewer: { kind: 'PARTNER', keyKind: 'PARTNER', partner: { name: 'Demo Retail' } } },
    });
    expect((await service().graphql(VIEWER, { authorization: 'Bearer other-retail-key' })).body).toEqual({
      data: { viewer: { kind: 'PARTNER', keyKind: 'RETAIL', partner: { name: 'Other Retail' } } },
    });
    expect((await service().graphql(VIEWER, { 'x-api-key': 'demo-operator-key' })).body.data.viewer).toEqual({
      kind: 'OPERATOR',
      keyKind: 'OPERATOR',
      partner: null,
    });
  });

  it('names the missing credential and its place, and rejects an unknown one', async () => {
    const missing = await service().graphql(VIEWER);
    expect(missing.status).toBe(401); // refused once parsed, before validation and execution
    expect(missing.body.data).toBeUndefined();
    expect(missing.body.errors[0].extensions.code).toBe('MISSING_API_KEY');
    expect(missing.body.errors[0].message).toContain('X-Api-Key header');

    const unknown = await service().graphql(VIEWER, { authorization: 'Bearer nope' });
    expect(unknown.status).toBe(401); // refused before execution
    expect(unknown.body.errors[0].extensions.code).toBe('INVALID_API_KEY');
  });

  it('refuses a malformed Authorization header with 401, as the REST door does; X-Api-Key still wins', async () => {
    const basic = 'Basic ZGVtbzpkZW1v';
    const malformed = [basic, 'Bearer', 'Bearer a b', 'Token demo-partner-key', 'Bearer\tdemo-partner-key'];
    const message = 'the Authorization header must be "Bearer <API key or access token>"';
    for (const authorization of malformed) {
      const answer = await service().graphql(VIEWER, { authorization });
      expect(answer.status, authorization).toBe(401);
      const refusal = { message, extensions: { code: 'INVALID_ACCESS_TOKEN' } };
      expect(answer.body, authorization).toEqual({ errors: [refusal] });
    }
    const withKey = await service().graphql(VIEWER, { 'x-api-key': 'demo-partner-key', authorization: basic });
    expect(withKey.status).toBe(200);
    expect(withKey.body.data.viewer.kind).toBe('PARTNER');
    // A blank header is no credential at all, as on the REST door.
    const blank = await service().graphql(VIEWER, { authorization: ' ' });
    expect(blank.body.errors[0].extensions.code).toBe('MISSING_API_KEY');
  });

  it('forbids partner data to vendor keys', async () => {
    const result = await service().graphql('{ merchants { id } }', { 'x-api-key': 'demo-vendor-key' });
    expect(result.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(result.body.data).toBeNull();
  });
});

describe('createAccessToken authenticates its apiKey as every door authenticates a key', () => {
  const CREATE_TOKEN = 'mutation($apiKey: String!) { createAccessToken(apiKey: $apiKey) { tokenType } }';
  const NOT_VALID = 'the action is not authorized: the API key is not valid (unknown, revoked or expired)';
  const REFUSED = { message: NOT_VALID, extensions: { code: 'INVALID_API_KEY' } };
  const buy = (apiKey: string) => service().graphql(CREATE_TOKEN, {}, { apiKey });

  it('refuses a generated key with a broken checksum without looking it up', async () => {
    const key = generateApiKey('vendor');
    const broken = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
    const { result, statements } = await statementsDuring(fixture.database.db, () => buy(broken));
    expect(result.body.errors[0]).toMatchObject(REFUSED);
    expect(statements).toEqual([]);
  });

  it('refuses a generated key whose prefix disagrees with the kind it is stored as', async () => {
    const vendorId = (await fixture.database.db('payment_vendors').where({ name: 'demo-vendor' }).first('id')).id;
    // A partner-prefixed secret stored as a vendor key: the door refuses it, so createAccessToken must too.
    const secret = generateApiKey('partner');
    const hash = hashApiKey(secret);
    const row = { key_hash: hash, display_prefix: displayPrefix(secret), kind: 'vendor', vendor_id: vendorId };
    await fixture.database.db('api_keys').insert(row);
    const viewer = await service().graphql('{ viewer { kind } }', { 'x-api-key': secret });
    expect(viewer.body.errors[0].extensions.code).toBe('INVALID_API_KEY');
    expect((await buy(secret)).body.errors[0]).toMatchObject(REFUSED);
  });

  it('takes an API key only: an access token is not traded for another', async () => {
    const token = (await buy('demo-vendor-key')).body.data.createAccessToken;
    expect(token.tokenType).toBe('Bearer');
    const bought = await service().graphql('mutation { createAccessToken(apiKey: "demo-vendor-key") { accessToken } }');
    const retrade = await buy(bought.body.data.createAccessToken.accessToken);
    expect(retrade.body.errors[0]).toMatchObject(REFUSED);
  });
});
