import type { EventTypeName } from '../events/rows.js';
import type { ConnectionPage, EdgeParent } from '../pages.js';

export type WebhookFormatName = 'standard' | 'payjoy_v1';

/** A row of `webhook_endpoints`. Its secrets never leave the service except in WebhookEndpointSecret. */
export interface WebhookEndpointRow {
  partner_id: string;
  id: string;
  url: string;
  event_types: EventTypeName[];
  format: WebhookFormatName;
  description: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: Date | null;
  created_at: Date;
}

/** createWebhookEndpoint's and rotateWebhookSecret's answer: the secret, shown once. */
export interface WebhookEndpointSecretParent {
  secret: string;
  endpoint: WebhookEndpointRow;
}

type WebhookDeliveryStatusName = 'pending' | 'delivered' | 'failed';

/** A row of `webhook_deliveries`: one event to one endpoint. */
export interface WebhookDeliveryRow {
  partner_id: string;
  id: string;
  endpoint_id: string;
  event_id: string;
  status: WebhookDeliveryStatusName;
  attempt_count: number;
  next_attempt_at: Date | null;
  claimed_until: Date | null;
  claim_token: string | null;
  created_at: Date;
  delivered_at: Date | null;
}

/** A row of `webhook_attempts`: one POST. */
export interface WebhookAttemptRow {
  partner_id: string;
  id: string;
  delivery_id: string;
  at: Date;
  status_code: number | null;
  latency_ms: number | null;
  response: string | null;
  error: string | null;
}

/** A page of endpoints (Query.webhookEndpoints), and one of its edges. */
export type WebhookEndpointConnectionParent = ConnectionPage<WebhookEndpointRow>;
export type WebhookEndpointEdgeParent = EdgeParent<WebhookEndpointRow>;

/** A page of an endpoint's deliveries (WebhookEndpoint.deliveries), and one of its edges. */
export type WebhookDeliveryConnectionParent = ConnectionPage<WebhookDeliveryRow>;
export type WebhookDeliveryEdgeParent = EdgeParent<WebhookDeliveryRow>;
