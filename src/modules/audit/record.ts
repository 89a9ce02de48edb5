// Operator actions and their audit record commit together: the record is written in the action's
// own database transaction, so there is no action without its line in the trail, and no line
// without its action. Every audited write (the domain's operation files, the keys CLI) goes through
// audited(); nothing else inserts into the trail.

import type { Db, DbOrTrx } from '../../db/knex.js';
import type { Context } from '../../pipeline/context.js';
import { requireOperator, requirePrincipal } from '../auth/principal.js';
import { insertAuditEvent } from './queries.js';
import type { AuditActor, AuditEntry } from './rows.js';

/** The operator behind this request, as the trail names them. */
export function operatorActor(ctx: Context): AuditActor {
  const operatorId = requireOperator(ctx);
  return {
    kind: 'operator',
    id: operatorId,
    keyId: requirePrincipal(ctx).keyId,
    clientAddress: ctx.clientAddress,
    requestId: ctx.requestId,
  };
}

/** The caller as the trail names them: an operator, or a partner key acting on its own partner. */
export function callerActor(ctx: Context): AuditActor {
  const principal = requirePrincipal(ctx);
  if (principal.kind !== 'partner') return operatorActor(ctx);
  return {
    kind: 'partner',
    id: principal.partnerId,
    keyId: principal.keyId,
    clientAddress: ctx.clientAddress,
    requestId: ctx.requestId,
  };
}

/**
 * Runs an action and writes its audit record in one database transaction, which it opens. An action
 * that found nothing to change (an idempotent one repeated) describes itself as null: no record.
 */
export async function audited<T>(
  db: Db,
  actor: AuditActor,
  run: (trx: DbOrTrx) => Promise<T>,
  describe: (result: T) => AuditEntry | null,
): Promise<T> {
  return db.transaction(async (trx) => {
    const result = await run(trx);
    const entry = describe(result);
    if (entry !== null) await insertAuditEvent(trx, actor, entry);
    return result;
  });
}
