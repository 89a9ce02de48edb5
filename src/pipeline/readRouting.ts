// Which database an operation uses, with a read replica configured: a query's reads go to the replica
// when the request may use it (createContext decided: replica up, not lagging, the caller's own last
// write replayed there); a mutation, and every check it makes, stays on the primary, and once it
// answers, the caller's key records where it wrote so its next reads wait for the replica to catch up.
// Both doors run through here: /graphql, and the REST shim's executeOperation. Subscriptions do not
// (their door executes without Apollo's pipeline): they stay on the primary.
import type { ApolloServerPlugin } from '@apollo/server';
import type { Db } from '../db/knex.js';
import { recordKeyWrite } from '../modules/auth/queries.js';
import type { Context } from './context.js';

type ReadTarget = 'replica' | 'primary';

/** Hears where each query operation read (the metrics' port). */
export interface ReadRoutingObserver {
  read(target: ReadTarget): void;
}

/** The plugin; install it only when a replica is configured (without one it would only cost). */
export function readRoutingPlugin(primary: Db, observe?: ReadRoutingObserver): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, contextValue }) {
          // Settled once, before any resolver reads: the operation's reads stay where they start.
          const onReplica = contextValue.reads.choose(operation?.operation === 'query');
          if (operation?.operation === 'query') observe?.read(onReplica ? 'replica' : 'primary');
        },
        // Every mutation of a principal, refused ones too: what a resolver wrote is not this plugin's to judge.
        async willSendResponse({ operation, contextValue }) {
          if (operation?.operation !== 'mutation' || !contextValue.auth.principal) return;
          // Before the answer leaves: the caller's next read, on any instance, sees this write. The write
          // itself is committed: a failure here is logged, never turned into a failed answer.
          try {
            await recordKeyWrite(primary, contextValue.auth.principal.keyId);
          } catch (error) {
            contextValue.logger.error({ err: error }, "could not record the key's write for read-your-writes");
          }
        },
      };
    },
  };
}
