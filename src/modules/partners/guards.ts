import type { DbOrTrx } from '../../db/knex.js';
import { notFound } from '../../kernel/errors.js';
import { requireId } from '../inputs.js';
import { partnerExists } from './queries.js';

/** The partner an operator's mutation names, which must exist (RESOURCE_NOT_FOUND otherwise). */
export async function requireExistingPartner(db: DbOrTrx, partnerId: string): Promise<string> {
  requireId('partner', partnerId);
  if (!(await partnerExists(db, partnerId))) throw notFound('partner', partnerId);
  return partnerId;
}
