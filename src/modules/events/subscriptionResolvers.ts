// Subscription.events: the live event log over the WebSocket door, scoped like Query.events (a
// partner key its own partner's events; operators every partner's or one's; retail and vendor keys
// refused).

import { GraphQLError } from 'graphql';
import type { Resolvers } from '../../__generated__/resolvers.js';
import { forbidden } from '../../kernel/errors.js';
import { readablePartner, requirePrincipal } from '../auth/principal.js';
import type { EventRow } from './rows.js';
import { eventStream } from './stream.js';
import { logEventType } from './typeNames.js';

export const eventSubscriptionResolvers: Resolvers = {
  Subscription: {
    events: {
      subscribe: async (_root, { types, partnerId: requested }, ctx) => {
        if (!ctx.live) {
          throw new GraphQLError('subscriptions are served over WebSocket (graphql-ws) on /graphql', {
            extensions: { code: 'BAD_REQUEST' },
          });
        }
        requirePrincipal(ctx);
        const partnerId = readablePartner(ctx, requested, ['partner']);
        if (partnerId === undefined) throw forbidden(`this key cannot read the events of partner ${requested}`);
        const filter = { partnerId, types: types?.length ? new Set(types.map(logEventType)) : null };
        return eventStream(ctx.live.feed, filter, ctx.live.connection, ctx.live.bounds);
      },
      resolve: (row: EventRow) => row,
    },
  },
};
