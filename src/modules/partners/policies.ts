// Every instance's copy of the partners' lock policies and sandbox clocks (decisions.md 15), so a
// lookup or a payment reads them without a statement. Read whole at start (only partners whose policy
// was ever changed: the others have the defaults and real time); each change's transaction NOTIFYs
// the partner's whole policy with its revision on POLICY_CHANNEL, and every instance applies it in
// revision order (the instance that changed it too, at once, after its commit). A lost listening
// connection is listened again and everything read again: no change stays unheard.
import type { Logger } from 'pino';
import type { Db, DbOrTrx } from '../../db/knex.js';
import { type ChannelListener, listenToChannel } from '../../db/notifications.js';
import type { PartnerClocks, SandboxClockView } from './clock.js';
import {
  DEFAULT_PARTNER_SETTINGS,
  PARTNER_SETTINGS_COLUMNS,
  type PartnerSettings,
  type PartnerSettingsColumns,
  type PartnerSettingsSource,
  settingsOfColumns,
} from './settings.js';

const POLICY_CHANNEL = 'dfs_partner_policy';

/** A partner's policy at one revision: its settings, and its sandbox clock's offset (null: real time). */
export interface PartnerPolicy {
  partnerId: string;
  /** int8 as text: the partner's count of policy changes. */
  revision: string;
  settings: PartnerSettings;
  offsetMs: number | null;
}

/** The policies an instance knows; the clocks and settings every request and background task reads. */
export class PartnerPolicies implements PartnerClocks, PartnerSettingsSource {
  readonly #known = new Map<string, PartnerPolicy>();

  /** `production`: every clock is real, whatever is stored. */
  constructor(
    private readonly realNow: () => Date,
    readonly production: boolean,
  ) {}

  nowFor(partnerId: string): Date {
    const real = this.realNow();
    const offset = this.offsetOf(partnerId);
    return offset === null ? real : new Date(real.getTime() + offset);
  }

  settingsFor(partnerId: string): PartnerSettings {
    return this.#known.get(partnerId)?.settings ?? DEFAULT_PARTNER_SETTINGS;
  }

  /** The partner's sandbox offset in ms; null on real time (always, in production). */
  offsetOf(partnerId: string): number | null {
    if (this.production) return null;
    return this.#known.get(partnerId)?.offsetMs ?? null;
  }

  /** The partner's sandbox clock; null on real time. */
  sandboxClockOf(partnerId: string): SandboxClockView | null {
    const offset = this.offsetOf(partnerId);
    if (offset === null) return null;
    const realNow = this.realNow();
    return { partnerId, now: new Date(realNow.getTime() + offset), realNow };
  }

  /** Every partner on a sandbox clock, with its offset (a listing of every partner's orders). */
  sandboxOffsets(): ReadonlyMap<string, number> {
    const offsets = new Map<string, number>();
    if (this.production) return offsets;
    for (const [partnerId, policy] of this.#known)
      if (policy.offsetMs !== null) offsets.set(partnerId, policy.offsetMs);
    return offsets;
  }

  /** Takes `policy` unless a later revision of the partner's is known already. */
  apply(policy: PartnerPolicy): void {
    const known = this.#known.get(policy.partnerId);
    if (known && BigInt(known.revision) >= BigInt(policy.revision)) return;
    this.#known.set(policy.partnerId, policy);
  }
}

/** The policy's notification: its fields by short names (a payload is at most 8,000 bytes). */
function policyMessage(policy: PartnerPolicy): string {
  return JSON.stringify({ p: policy.partnerId, r: policy.revision, s: policy.settings, o: policy.offsetMs });
}

function policyOfMessage(payload: string): PartnerPolicy | null {
  try {
    const { p, r, s, o } = JSON.parse(payload) as { p: string; r: string; s: PartnerSettings; o: number | null };
    if (typeof p !== 'string' || typeof r !== 'string' || typeof s !== 'object' || s === null) return null;
    // An instance of an earlier version notifies without the settings added since: those take their defaults.
    return {
      partnerId: p,
      revision: r,
      settings: { ...DEFAULT_PARTNER_SETTINGS, ...s },
      offsetMs: typeof o === 'number' ? o : null,
    };
  } catch {
    return null;
  }
}

/** NOTIFYs `policy` inside the changing transaction: every instance hears it at commit, in commit order. */
export async function publishPartnerPolicy(trx: DbOrTrx, policy: PartnerPolicy): Promise<void> {
  await trx.raw('select pg_notify(?, ?)', [POLICY_CHANNEL, policyMessage(policy)]);
}

type PolicyRow = PartnerSettingsColumns & { id: string; policy_revision: string; offset_ms: string | null };

/** The policy of every partner whose policy was ever changed. */
async function changedPolicies(db: DbOrTrx): Promise<PartnerPolicy[]> {
  const rows = (await db('partners as p')
    .leftJoin('sandbox_clocks as c', 'c.partner_id', 'p.id')
    .select('p.id', 'p.policy_revision', ...PARTNER_SETTINGS_COLUMNS.map((column) => `p.${column}`), 'c.offset_ms')
    .where('p.policy_revision', '>', 0)) as PolicyRow[];
  return rows.map(policyOfRow);
}

const policyOfRow = (row: PolicyRow): PartnerPolicy => ({
  partnerId: row.id,
  revision: String(row.policy_revision),
  settings: settingsOfColumns(row),
  offsetMs: row.offset_ms === null ? null : Number(row.offset_ms),
});

/** One partner's policy as stored, read inside a change's transaction (after its row is locked). */
export async function partnerPolicyOf(trx: DbOrTrx, partnerId: string): Promise<PartnerPolicy | undefined> {
  const row = (await trx('partners as p')
    .leftJoin('sandbox_clocks as c', 'c.partner_id', 'p.id')
    .select('p.id', 'p.policy_revision', ...PARTNER_SETTINGS_COLUMNS.map((column) => `p.${column}`), 'c.offset_ms')
    .where('p.id', partnerId)
    .forUpdate('p')
    .first()) as PolicyRow | undefined;
  return row && policyOfRow(row);
}

interface RunningPolicies {
  policies: PartnerPolicies;
  /** Stops listening. */
  close: () => Promise<void>;
}

const RELISTEN_DELAY_MS = 1000;

/**
 * Listens, then reads every changed policy (so nothing committed in between is missed), and keeps
 * listening; a lost connection is listened again after a second, and everything read again.
 */
export async function startPartnerPolicies(
  db: Db,
  options: { realNow: () => Date; production: boolean; logger: Logger },
): Promise<RunningPolicies> {
  const policies = new PartnerPolicies(options.realNow, options.production);
  let listener: ChannelListener | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const onPayload = (payload: string) => {
    const policy = policyOfMessage(payload);
    if (policy) policies.apply(policy);
  };
  const connect = async () => {
    const opened = await listenToChannel(db, POLICY_CHANNEL, { onPayload, onLost });
    try {
      for (const policy of await changedPolicies(db)) policies.apply(policy);
    } catch (error) {
      await opened.close().catch(() => {});
      throw error;
    }
    listener = opened;
  };
  function onLost(error: Error) {
    listener = null;
    if (closed) return;
    options.logger.warn({ err: error }, 'the partner policies lost their listening connection: listening again');
    listenAgainLater();
  }
  function listenAgainLater() {
    const again = () => {
      retry = undefined;
      if (closed) return;
      connect().catch((failure: unknown) => {
        options.logger.warn({ err: failure }, 'listening to partner policies failed: trying again');
        retry = setTimeout(again, RELISTEN_DELAY_MS);
        retry.unref();
      });
    };
    retry = setTimeout(again, RELISTEN_DELAY_MS);
    retry.unref();
  }

  try {
    await connect();
  } catch (error) {
    // A database that cannot be reached at start leaves the service up (its readiness says why), on
    // the defaults and real time until the policies are read: the requests that need them fail anyway.
    options.logger.warn({ err: error }, 'the partner policies could not be read at start: trying again');
    listenAgainLater();
  }
  return {
    policies,
    close: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      const current = listener as ChannelListener | null;
      listener = null;
      // A database already closed (a shut-down, a test's destroyed database) has nothing left to unlisten.
      await current?.close().catch(() => {});
    },
  };
}
