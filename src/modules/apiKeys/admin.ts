// Creating and revoking API keys, for both operator GraphQL mutations and the keys CLI, above the
// audit trail it writes to (auth, below both, only reads a key to say who is calling): one place
// for the rules (one owner of the key's kind, at most two active keys per owner and kind so a key
// can be rotated without downtime) and for the audit record, written in the same transaction.
import type { Db } from '../../db/knex.js';
import { invalidArgument, notFound } from '../../kernel/errors.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { activeKeyAt } from '../auth/activeKey.js';
import { displayPrefix, generateApiKey, hashApiKey } from '../auth/keys.js';
import { apiKeyById, insertApiKey, insertOperator, revokeApiKey } from '../auth/queries.js';
import type { ApiKeyKind, ApiKeyRow } from '../auth/rows.js';
import { publishKeyRevocation } from '../events/publish.js';

/** Two: the key in use and its replacement, during a rotation. */
const MAX_ACTIVE_KEYS = 2;

const OWNER = {
  partner: { column: 'partner_id', table: 'partners', name: 'partner' },
  retail: { column: 'partner_id', table: 'partners', name: 'partner' },
  vendor: { column: 'vendor_id', table: 'payment_vendors', name: 'payment vendor' },
  operator: { column: 'operator_id', table: 'operators', name: 'operator' },
} as const;

interface NewApiKey {
  kind: ApiKeyKind;
  ownerId: string;
  label?: string | null;
  expiresAt?: Date | null;
}

export async function createApiKeyFor(
  db: Db,
  request: NewApiKey,
  actor: AuditActor,
  now: Date,
): Promise<{ row: ApiKeyRow; secret: string }> {
  const owner = OWNER[request.kind];
  if (request.expiresAt && request.expiresAt.getTime() <= now.getTime())
    throw invalidArgument('expiresAt', 'must be in the future');
  return audited(
    db,
    actor,
    async (trx) => {
      // Serialise key creation per owner and kind, so two requests cannot both take the last free slot.
      await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [
        `api-keys:${request.kind}:${request.ownerId}`,
      ]);
      if (!(await trx(owner.table).where({ id: request.ownerId }).first('id')))
        throw notFound(owner.name, request.ownerId);
      const [counted] = await trx('api_keys')
        .where({ kind: request.kind, [owner.column]: request.ownerId })
        .modify(activeKeyAt(now))
        .count({ active: '*' });
      if (Number(counted?.active ?? 0) >= MAX_ACTIVE_KEYS) {
        throw invalidArgument(
          'kind',
          `is refused: the ${owner.name} already has ${MAX_ACTIVE_KEYS} active ${request.kind} keys; revoke one before creating another`,
        );
      }
      const secret = generateApiKey(request.kind);
      const row = await insertApiKey(trx, {
        key_hash: hashApiKey(secret),
        display_prefix: displayPrefix(secret),
        kind: request.kind,
        partner_id: owner.column === 'partner_id' ? request.ownerId : null,
        vendor_id: owner.column === 'vendor_id' ? request.ownerId : null,
        operator_id: owner.column === 'operator_id' ? request.ownerId : null,
        label: request.label?.trim() || null,
        expires_at: request.expiresAt ?? null,
      });
      return { row, secret };
    },
    ({ row }) => ({
      action: 'api_key.create',
      subjectKind: 'api_key',
      subjectId: row.id,
      partnerId: row.partner_id,
      details: {
        kind: row.kind,
        displayPrefix: row.display_prefix,
        label: row.label,
        expiresAt: row.expires_at,
        owner: { [owner.column]: request.ownerId },
      },
    }),
  );
}

/**
 * Revokes a key now (a key already revoked keeps its first revocation time); the event is recorded
 * either way. Every instance is told in the same transaction (publishKeyRevocation): its WebSocket
 * connections of this key, and of access tokens it bought, close at commit (decisions.md 12).
 */
export async function revokeApiKeyAs(db: Db, id: string, actor: AuditActor, now: Date): Promise<ApiKeyRow> {
  const { row } = await audited(
    db,
    actor,
    async (trx) => {
      const before = await apiKeyById(trx, id);
      if (!before) throw notFound('API key', id);
      await publishKeyRevocation(trx, id);
      return { row: (await revokeApiKey(trx, id, now))!, alreadyRevoked: before.revoked_at !== null };
    },
    ({ row, alreadyRevoked }) => ({
      action: 'api_key.revoke',
      subjectKind: 'api_key',
      subjectId: row.id,
      partnerId: row.partner_id,
      details: { kind: row.kind, displayPrefix: row.display_prefix, alreadyRevoked },
    }),
  );
  return row;
}

/** A new operator (internal staff), from the keys CLI: its first key is created next, by createApiKeyFor. */
export function createOperator(db: Db, actor: AuditActor, name: string): Promise<string> {
  return audited(
    db,
    actor,
    (trx) => insertOperator(trx, name),
    (operatorId) => ({ action: 'operator.create', subjectKind: 'operator', subjectId: operatorId, details: { name } }),
  );
}
