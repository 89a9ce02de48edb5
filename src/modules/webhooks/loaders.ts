// Per-request loaders: endpoints, deliveries and attempts by (partner, id), batched.
import type { Db } from '../../db/knex.js';
import type { EventRow } from '../events/rows.js';
import { tenantChildrenLoader, tenantKeyLoader } from '../tenancy.js';
import {
  attemptsOfDeliveries,
  deliveriesOfEndpoints,
  deliveriesOfEvents,
  endpointsByKeys,
  eventsByKeys,
} from './queries.js';

/** The most deliveries WebhookEndpoint.deliveries answers. */
const MAX_ENDPOINT_DELIVERIES = 500;

export function createWebhookLoaders(db: Db) {
  return {
    endpointByKey: tenantKeyLoader((keys) => endpointsByKeys(db, keys)),
    eventByKey: tenantKeyLoader<EventRow>((keys) => eventsByKeys(db, keys)),
    deliveriesOfEndpoint: tenantChildrenLoader(
      (keys) => deliveriesOfEndpoints(db, keys, MAX_ENDPOINT_DELIVERIES),
      (row) => row.endpoint_id,
    ),
    deliveriesOfEvent: tenantChildrenLoader(
      (keys) => deliveriesOfEvents(db, keys),
      (row) => row.event_id,
    ),
    attemptsOfDelivery: tenantChildrenLoader(
      (keys) => attemptsOfDeliveries(db, keys),
      (row) => row.delivery_id,
    ),
  };
}
