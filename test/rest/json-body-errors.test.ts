// A malformed JSON body says where it stops being JSON (decisions.md 3), on every door that reads one:
// /graphql (Express's parser), the payments interface and the device door (the lossless reader). The
// answer quotes one character, never the body around it; nothing is recorded.
import { describe, expect, it } from 'vitest';
import { DEMO_DEVICE_TAG } from '../../src/fixtures/demoIds.js';
import { useSeededService } from '../support/fixtures.js';

const fixture = useSeededService();
const service = () => fixture.service;

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  service().request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

async function operator(query: string, variables?: Record<string, unknown>): Promise<any> {
  const { body } = (await service().graphql(query, { 'x-api-key': 'demo-operator-key' }, variables)) as {
    body: { data?: any; errors?: unknown };
  };
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

// Written by a person, over three lines: the third misses a value.
const NOTIFICATION = '{\n  "paymentVendor": "Demo Pay",\n  "amount": }';
const SECRET = `sk_live_${'7'.repeat(2000)}`;

describe('a malformed JSON body says where', () => {
  it('on /graphql: the line and column and the character found, in the GraphQL errors shape', async () => {
    const response = await post('/graphql', '{"query": "{ viewer { kind } }",\n "variables": {"a": 1,}}');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: [
        {
          message: 'the request body is not valid JSON: unexpected "}" at line 2, column 23',
          extensions: { code: 'INVALID_REQUEST_BODY' },
        },
      ],
    });
    // Not an object or an array at all (Express's strict parser): said at its first character.
    const scalar = await post('/graphql', '  "{ viewer { kind } }"');
    expect(((await scalar.json()) as any).errors[0].message).toBe(
      'the request body is not valid JSON: unexpected "\\"" at line 1, column 3',
    );
  });

  it('on the payments interface: the token and the notification, nothing recorded', async () => {
    const token = await post('/payments/v1/token', '{"apiKey": demo-vendor-key}');
    expect(token.status).toBe(400);
    expect(await token.json()).toEqual({
      error: {
        code: 'INVALID_REQUEST_BODY',
        message: 'the request body is not valid JSON: unexpected "d" at line 1, column 12',
      },
    });

    const issued = await post('/payments/v1/token', JSON.stringify({ apiKey: 'demo-vendor-key' }));
    const { access_token: accessToken } = ((await issued.json()) as { data: { access_token: string } }).data;
    const payments = async () => Number((await fixture.database.db('payments').count({ n: '*' }))[0]!.n);
    const before = await payments();
    const notification = await post('/payments/v1/notification', NOTIFICATION, {
      authorization: `Bearer ${accessToken}`,
    });
    expect(notification.status).toBe(400);
    expect(await notification.json()).toEqual({
      error: {
        code: 'INVALID_REQUEST_BODY',
        message: 'the request body is not valid JSON: unexpected "}" at line 3, column 13',
      },
    });
    expect(await payments()).toBe(before);
  });

  it('on the device door, nothing recorded', async () => {
    const { device } = await operator('query($t: String!) { device(tag: $t) { id lastSeen } }', {
      t: DEMO_DEVICE_TAG,
    });
    const { issueDeviceCredential } = await operator(
      'mutation($id: ID!) { issueDeviceCredential(deviceId: $id) { credential } }',
      { id: device.id },
    );
    const response = await post('/devices/v1/checkin', '{"imei": "123456789012347",\n"appVersion": 1.4.2}', {
      authorization: `Bearer ${issueDeviceCredential.credential}`,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error).toEqual({
      code: 'INVALID_REQUEST_BODY',
      message: 'the request body is not valid JSON: unexpected "." at line 2, column 18',
    });
    const after = await operator('query($t: String!) { device(tag: $t) { lastSeen } }', { t: DEMO_DEVICE_TAG });
    expect(after.device.lastSeen).toBe(device.lastSeen);
  });

  it('quotes one character, never the body around it', async () => {
    for (const path of ['/graphql', '/payments/v1/token']) {
      const response = await post(path, `{"apiKey": "${SECRET}" "query": 1}`);
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(text).toContain('unexpected \\"\\\\\\"\\" at line 1, column 2023');
      expect(text).not.toContain('sk_live');
    }
  });
});
