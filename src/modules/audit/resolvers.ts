import type { Resolvers } from '../../__generated__/resolvers.js';
import { invalidArgument } from '../../errors.js';
import { isDatabaseId } from '../../ids.js';
import { pageSizeOf } from '../../listSize.js';
import { requireOperator } from '../auth/principal.js';
import { listAuditEvents } from './queries.js';

const ACTOR_KINDS = { operator: 'OPERATOR', cli: 'CLI', partner: 'PARTNER' } as const;

export const auditResolvers: Resolvers = {
  Query: {
    auditEvents: async (_root, { first, after, action, partnerId }, ctx, info) => {
      requireOperator(ctx);
      const limit = pageSizeOf(info, first);
      const beforeId = after != null ? Buffer.from(after, 'base64url').toString('utf8') : undefined;
      if (beforeId !== undefined && !isDatabaseId(beforeId))
        throw invalidArgument('after', 'is not a cursor of this connection');
      if (partnerId != null && !isDatabaseId(partnerId)) return { rows: [], hasNextPage: false };
      const rows = await listAuditEvents(ctx.db, { action, partnerId, beforeId, limit: limit + 1 });
      return { rows: rows.slice(0, limit), hasNextPage: rows.length > limit };
    },
  },
  AuditEventConnection: {
    nodes: (page) => page.rows,
    pageInfo: (page) => ({
      hasNextPage: page.hasNextPage,
      endCursor: page.rows.length ? Buffer.from(page.rows[page.rows.length - 1]!.id).toString('base64url') : null,
    }),
  },
  AuditEvent: {
    time: (event) => event.occurred_at,
    actorKind: (event) => ACTOR_KINDS[event.actor_kind],
    actorId: (event) => event.actor_id,
    actorKeyId: (event) => event.actor_key_id,
    subjectKind: (event) => event.subject_kind,
    subjectId: (event) => event.subject_id,
    partnerId: (event) => event.partner_id,
    clientAddress: (event) => event.client_address,
    requestId: (event) => event.request_id,
  },
};
