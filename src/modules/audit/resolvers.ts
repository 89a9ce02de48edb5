import type { Resolvers } from '../../__generated__/resolvers.js';
import { invalidArgument } from '../../kernel/errors.js';
import { isDatabaseId } from '../../kernel/ids.js';
import { pageSizeOf } from '../../kernel/listSize.js';
import { requireOperator } from '../auth/principal.js';
import { column } from '../columns.js';
import { connectionResolvers } from '../pages.js';
import { auditEventsPrecede, countAuditEvents, listAuditEvents } from './queries.js';
import type { AuditEventRow } from './rows.js';

const ACTOR_KINDS = { operator: 'OPERATOR', cli: 'CLI', partner: 'PARTNER', device: 'DEVICE' } as const;

// Opaque cursors: the event's id (the trail is read newest first, by id).
const cursorOf = (event: AuditEventRow) => Buffer.from(event.id).toString('base64url');

export const auditResolvers: Resolvers = {
  Query: {
    auditEvents: async (_root, { first, after, action, partnerId }, ctx, info) => {
      requireOperator(ctx);
      const limit = pageSizeOf(info, first);
      const beforeId = after != null ? Buffer.from(after, 'base64url').toString('utf8') : undefined;
      if (beforeId !== undefined && !isDatabaseId(beforeId))
        throw invalidArgument('after', 'is not a cursor of this connection');
      const filter = { action, partnerId };
      // An id that cannot exist names no partner: an empty trail, without asking the database.
      if (partnerId != null && !isDatabaseId(partnerId))
        return { rows: [], hasNextPage: false, filter, previousExists: null, empty: true };
      const rows = await listAuditEvents(ctx.reads.db, { ...filter, beforeId, limit: limit + 1 });
      return {
        rows: rows.slice(0, limit),
        hasNextPage: rows.length > limit,
        filter,
        previousExists: beforeId !== undefined ? () => auditEventsPrecede(ctx.reads.db, filter, beforeId) : null,
      };
    },
  },
  AuditEventConnection: {
    ...connectionResolvers(cursorOf),
    totalCount: (page, _args, ctx) => (page.empty ? 0 : countAuditEvents(ctx.reads.db, page.filter)),
  },
  AuditEvent: {
    time: column('occurred_at'),
    actorKind: (event) => ACTOR_KINDS[event.actor_kind],
    actorId: column('actor_id'),
    actorKeyId: column('actor_key_id'),
    subjectKind: column('subject_kind'),
    subjectId: column('subject_id'),
    partnerId: column('partner_id'),
    clientAddress: column('client_address'),
    requestId: column('request_id'),
  },
};
