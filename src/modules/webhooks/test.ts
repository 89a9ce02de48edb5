// sendTestWebhook: a signed POST of a test message (type webhook.test) to an endpoint, made now and
// answered as its attempt; nothing queued, the audit trail records that it was sent and what came back.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/knex.js';
import { notFound } from '../../errors.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import type { TenantKey } from '../tenancy.js';
import { postWebhook } from './post.js';
import { endpointByKey } from './queries.js';
import type { WebhookAttemptRow } from './rows.js';
import { signedRequest } from './signing.js';
import { DEFAULT_DELIVERY_SETTINGS } from './worker.js';

export async function sendTestWebhook(
  db: Db,
  actor: AuditActor,
  key: TenantKey,
  options: { production: boolean; now: () => Date },
): Promise<WebhookAttemptRow> {
  const endpoint = await endpointByKey(db, key);
  if (!endpoint) throw notFound('webhook endpoint', key.id);
  const at = options.now();
  const id = `msg_test_${randomBytes(12).toString('hex')}`;
  const data = { test: true, endpointId: endpoint.id };
  const request = signedRequest(endpoint, { id, type: 'webhook.test', occurredAt: at, data }, at);
  const outcome = await postWebhook(endpoint.url, request, {
    timeoutMs: DEFAULT_DELIVERY_SETTINGS.timeoutMs,
    production: options.production,
    now: options.now,
  });
  const attempt: WebhookAttemptRow = {
    partner_id: endpoint.partner_id,
    id,
    delivery_id: '',
    at: outcome.at,
    status_code: outcome.statusCode,
    latency_ms: outcome.latencyMs,
    response: outcome.response,
    error: outcome.error,
  };
  return audited(
    db,
    actor,
    async () => attempt,
    () => ({
      action: 'webhook_endpoint.send_test',
      subjectKind: 'webhook_endpoint',
      subjectId: endpoint.id,
      partnerId: endpoint.partner_id,
      details: { statusCode: outcome.statusCode, error: outcome.error },
    }),
  );
}
