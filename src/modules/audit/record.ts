// Operator actions and their audit record commit together: the record is written in the action's
// own database transaction, so there is no action without its line in the trail, and no line
// without its action.
import type { Context } from '../../context.js';
import type { DbOrTrx } from '../../db/knex.js';
import { requireOperator, requirePrincipal } from '../auth/principal.js';
import { insertAuditEvent } from './queries.js';
import type { AuditActor, AuditEntry } from './rows.js';

/** The operator behind this request, as the trail names them. */
export function operatorActor(ctx: Context): AuditActor {
  const operatorId = requireOperator(ctx);
  return { kind: 'operator', id: operatorId, keyId: requirePrincipal(ctx).keyId, clientAddress: ctx.clientAddress, requestId: ctx.requestId };
}

/** Runs an operator's action and writes its audit record in one database transaction. */
export async function audited<T>(ctx: Context, run: (trx: DbOrTrx) => Promise<T>, describe: (result: T) => AuditEntry): Promise<T> {
  const actor = operatorActor(ctx);
  return ctx.db.transaction(async (trx) => {
    const result = await run(trx);
    await insertAuditEvent(trx, actor, describe(result));
    return result;
  });
}
