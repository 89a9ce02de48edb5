// What a delivery looks like on the wire, per format. STANDARD follows the Standard Webhooks
// specification (www.standardwebhooks.com): signed over "id.timestamp.body" with the secret's decoded
// bytes, every valid secret's signature in one header, space-separated (a rotation's old secret too).
// PAYJOY_V1 is the legacy platform's: the bare transaction object, one HMAC of the raw body keyed with
// the secret string itself, as legacy receivers hold it.
import { createHmac, randomBytes } from 'node:crypto';
import type { EventRow } from '../events/rows.js';
import type { WebhookEndpointRow } from './rows.js';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret: whsec_ and the base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The secrets that sign now: the current one, and the previous one until it expires. */
function signingSecrets(endpoint: WebhookEndpointRow, now: Date): string[] {
  const secrets = [endpoint.secret];
  const expires = endpoint.previous_secret_expires_at;
  if (endpoint.previous_secret && expires && expires.getTime() > now.getTime()) secrets.push(endpoint.previous_secret);
  return secrets;
}

/** Standard Webhooks' v1 signature of one message with one secret. */
function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The legacy platform's X-PayJoy-Signature: base64(HMAC-SHA256(raw body, secret)). */
function payjoySignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}

export interface SignedRequest {
  body: string;
  headers: Record<string, string>;
}

/** A message to deliver: an event of the log, or sendTestWebhook's test message. */
interface WebhookMessage {
  id: string;
  type: string;
  occurredAt: Date;
  data: unknown;
}

export const messageOfEvent = (event: EventRow): WebhookMessage => ({
  id: event.id,
  type: event.type,
  occurredAt: event.occurred_at,
  data: event.data,
});

/** The body and headers of one POST of `message` to `endpoint`, signed at `now`. */
export function signedRequest(endpoint: WebhookEndpointRow, message: WebhookMessage, now: Date): SignedRequest {
  if (endpoint.format === 'payjoy_v1') {
    const body = JSON.stringify(message.data);
    return {
      body,
      headers: { 'content-type': 'application/json', 'x-payjoy-signature': payjoySignature(endpoint.secret, body) },
    };
  }
  const body = JSON.stringify({ type: message.type, timestamp: message.occurredAt.toISOString(), data: message.data });
  const timestamp = Math.floor(now.getTime() / 1000);
  const signatures = signingSecrets(endpoint, now).map((secret) =>
    standardSignature(secret, message.id, timestamp, body),
  );
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': message.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatures.join(' '),
    },
  };
}
