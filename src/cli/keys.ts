// npm run keys -- <command>: API keys (and the partner or operator they belong to) from a shell on a
// server, for bootstrapping production, where no operator key exists yet. Same rules and audit
// records as the operator's GraphQL mutations (modules/apiKeys/admin.ts); the actor is "cli".
//
//   create --kind partner|retail|vendor|operator --owner ID [--label TEXT] [--expires ISO-DATE]
//   create --kind operator --new-operator NAME [--label TEXT]      a new operator and its first key
//   list [--partner ID] [--vendor ID]
//   revoke ID
//   partner --name NAME [--commission-bps N]                       a new partner (N in basis points)
//   seal-unlock-keys                                               every stored unlock key sealed under the
//                                                                  first DEVICE_UNLOCK_SEALING_KEYS key (decisions.md 35)
// Only seal-unlock-keys reads a secret (DEVICE_UNLOCK_SEALING_KEYS); the others need the database alone.
import { userInfo } from 'node:os';
import type { Db } from '../db/knex.js';
import type { CommandConfig } from '../kernel/config.js';
import { unlockSealingKeys } from '../kernel/serviceSecrets.js';
import { createApiKeyFor, createOperator, revokeApiKeyAs } from '../modules/apiKeys/admin.js';
import type { AuditActor } from '../modules/audit/rows.js';
import { isActiveKey } from '../modules/auth/activeKey.js';
import { listApiKeys } from '../modules/auth/queries.js';
import type { ApiKeyKind } from '../modules/auth/rows.js';
import { createPartner } from '../modules/partners/create.js';
import { unlockKeySealer } from '../modules/unlockCodes/sealing.js';
import { sealStoredUnlockKeys, sealsUnderUnlistedKeys } from '../modules/unlockCodes/storedKeys.js';
import { readArgs, runCli, UsageError } from './run.js';

const USAGE = `usage: npm run keys -- create --kind partner|retail|vendor|operator (--owner ID | --new-operator NAME)
                                [--label TEXT] [--expires ISO-DATE]
       npm run keys -- list [--partner ID] [--vendor ID]
       npm run keys -- revoke ID
       npm run keys -- partner --name NAME [--commission-bps N]
       npm run keys -- seal-unlock-keys      (needs DEVICE_UNLOCK_SEALING_KEYS besides the database)
       built (npm run build): node dist/src/cli/keys.js <the same arguments>`;

const text = { type: 'string' } as const;
const OPTIONS = {
  kind: text,
  owner: text,
  'new-operator': text,
  label: text,
  expires: text,
  partner: text,
  vendor: text,
  name: text,
  'commission-bps': text,
};
const COMMANDS = {
  create: ['kind', 'owner', 'new-operator', 'label', 'expires'],
  list: ['partner', 'vendor'],
  revoke: [],
  partner: ['name', 'commission-bps'],
  'seal-unlock-keys': [],
} as const satisfies Record<string, ReadonlyArray<keyof typeof OPTIONS>>;
type Command = keyof typeof COMMANDS;
const isCommand = (word: string | undefined): word is Command => word !== undefined && Object.hasOwn(COMMANDS, word);

/** The command, its options (each only with the command it belongs to) and revoke's key id. */
function commandLine(): { command: Command; positional: string[]; flags: Map<string, string> } {
  const { values, positionals } = readArgs({ options: OPTIONS, allowPositionals: true });
  const [command, ...positional] = positionals;
  if (!isCommand(command)) throw new UsageError(`unknown command ${command ?? '(none)'}`);
  const allowed: ReadonlyArray<string> = COMMANDS[command];
  for (const name of Object.keys(values)) {
    if (!allowed.includes(name)) throw new UsageError(`--${name} does not go with ${command}`);
  }
  const extra = positional.slice(command === 'revoke' ? 1 : 0);
  if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`);
  const flags = new Map<string, string>();
  for (const [name, value] of Object.entries(values)) if (value !== undefined) flags.set(name, value);
  return { command, positional, flags };
}

const ID = /^[1-9][0-9]{0,17}$/;
function requireFlag(flags: Map<string, string>, name: string, pattern?: RegExp): string {
  const value = flags.get(name);
  if (value === undefined) throw new UsageError(`--${name} is required`);
  if (pattern && !pattern.test(value)) throw new UsageError(`--${name} is not valid: ${value}`);
  return value;
}

const out = (line: string) => process.stdout.write(`${line}\n`);

async function create(db: Db, actor: AuditActor, flags: Map<string, string>): Promise<void> {
  const kind = requireFlag(flags, 'kind', /^(partner|retail|vendor|operator)$/) as ApiKeyKind;
  let ownerId = flags.get('owner');
  const newOperator = flags.get('new-operator');
  if (newOperator !== undefined) {
    if (kind !== 'operator') throw new UsageError('--new-operator goes with --kind operator');
    ownerId = await createOperator(db, actor, newOperator);
    out(`operator ${ownerId} "${newOperator}" created`);
  }
  if (ownerId === undefined || !ID.test(ownerId))
    throw new UsageError('--owner ID (or --new-operator NAME) is required');
  const expires = flags.get('expires');
  const expiresAt = expires === undefined ? null : new Date(expires);
  if (expiresAt && Number.isNaN(expiresAt.getTime())) throw new UsageError(`--expires is not a date: ${expires}`);
  const { row, secret } = await createApiKeyFor(
    db,
    { kind, ownerId, label: flags.get('label') ?? null, expiresAt },
    actor,
    new Date(),
  );
  out(`${kind} key ${row.id} (${row.display_prefix}...) created for owner ${ownerId}`);
  out(`key: ${secret}`);
  out('This is the only time the key is shown: store it now. Only its hash is kept.');
}

async function list(db: Db, flags: Map<string, string>): Promise<void> {
  const partnerId = flags.get('partner');
  const vendorId = flags.get('vendor');
  for (const id of [partnerId, vendorId])
    if (id !== undefined && !ID.test(id)) throw new UsageError(`not an id: ${id}`);
  const now = new Date();
  out(['id', 'kind', 'owner', 'prefix', 'label', 'created', 'expires', 'revoked', 'active'].join('\t'));
  for (const key of await listApiKeys(db, { partnerId, vendorId })) {
    const owner = key.partner_id
      ? `partner ${key.partner_id}`
      : key.vendor_id
        ? `vendor ${key.vendor_id}`
        : `operator ${key.operator_id}`;
    const active = isActiveKey(key, now);
    out(
      [
        key.id,
        key.kind,
        owner,
        key.display_prefix,
        key.label ?? '',
        key.created_at.toISOString(),
        key.expires_at?.toISOString() ?? '',
        key.revoked_at?.toISOString() ?? '',
        active ? 'yes' : 'no',
      ].join('\t'),
    );
  }
}

async function revoke(db: Db, actor: AuditActor, positional: string[]): Promise<void> {
  const id = positional[0];
  if (id === undefined || !ID.test(id)) throw new UsageError('revoke needs the key id (see npm run keys -- list)');
  const row = await revokeApiKeyAs(db, id, actor, new Date());
  out(
    `key ${row.id} (${row.display_prefix}...) revoked at ${row.revoked_at!.toISOString()}: it and its access tokens stop working now`,
  );
}

async function partner(db: Db, actor: AuditActor, flags: Map<string, string>): Promise<void> {
  const name = requireFlag(flags, 'name').trim();
  const rate = Number(flags.get('commission-bps') ?? '0');
  if (!Number.isInteger(rate) || rate < 0 || rate > 10_000)
    throw new UsageError('--commission-bps must be a whole number from 0 to 10000');
  const row = await createPartner(db, actor, { name, commissionRateBasisPoints: rate });
  out(`partner ${row.id} "${row.name}" created (commission ${rate} basis points)`);
}

/**
 * Seals every unlock key still in clear and reseals every key sealed under a key but the first, at once
 * (the worker does it every hour), then says what is left: keys no listed key opens, or none. Exit code 1
 * while any is left, so a rotation's script stops before the old key is dropped.
 */
async function sealUnlockKeys(db: Db, config: CommandConfig, env: NodeJS.ProcessEnv): Promise<number> {
  const sealer = unlockKeySealer(unlockSealingKeys(env, config));
  const run = await sealStoredUnlockKeys(db, sealer);
  out(`sealed ${run.sealed} from clear, resealed ${run.resealed} under "${sealer.sealingKeyId}"`);
  const unlisted = await sealsUnderUnlistedKeys(db, sealer);
  if (unlisted.length === 0) {
    out(`none left in clear or under another key: every unlock key is sealed under "${sealer.sealingKeyId}"`);
    return 0;
  }
  const named = unlisted.map(({ keyId, count }) => `"${keyId}" (${count})`).join(', ');
  process.stderr.write(
    `left under keys DEVICE_UNLOCK_SEALING_KEYS does not list: ${named}; list them after the first and run this again\n`,
  );
  return 1;
}

const actor: AuditActor = { kind: 'cli', id: userInfo().username, keyId: null, clientAddress: null, requestId: null };

await runCli(USAGE, commandLine, async (db, config, { command, positional, flags }, env) => {
  if (command === 'create') await create(db, actor, flags);
  else if (command === 'list') await list(db, flags);
  else if (command === 'revoke') await revoke(db, actor, positional);
  else if (command === 'seal-unlock-keys') return sealUnlockKeys(db, config, env);
  else await partner(db, actor, flags);
  return 0;
});
