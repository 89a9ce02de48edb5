// A minimal device agent: one check-in at a time, its answer verified and bound to its request, its
// commands carried out once and acknowledged. Storage, the lock screen and scheduling are the platform's.
import { isDeepStrictEqual } from 'node:util';
import { compactVerify, createRemoteJWKSet } from 'jose';

export type LockState = 'UNLOCKED' | 'LOCKED' | 'RELEASED';
export interface Command {
  id: string;
  type: 'LOCK_NOW' | 'UNLOCK_FOR_HOURS' | 'SHOW_MESSAGE' | 'RELEASE';
  hours: number | null;
  message: string | null;
}
export interface CheckinData {
  deviceTag: string;
  lockState: LockState;
  reason: string | null;
  lockAt: number | null;
  nextCheckinAt: number;
  offlineLockAt: number | null;
  message: string | null;
  commands: Command[];
  issuedAt: number;
  sequence: number;
  nonce: string;
  unlockCodesThrough: number;
}

/** The protected header's typ of a check-in answer: nothing else is taken for one. */
export const CHECKIN_ANSWER_TYPE = 'dfs-checkin+jws';

/** What the agent keeps in storage that survives a reboot. */
export interface AgentState {
  /** The last accepted answer (its JWS can be verified again after a reboot); null before the first. */
  last: { data: CheckinData; jws: string } | null;
  /** The ids of commands carried out whose acknowledgement no accepted answer has confirmed yet. */
  carriedOut: string[];
  /** L of the offline unlock codes (decisions.md 21): the greatest code counter accepted, or voided by an answer. */
  unlockCounter: number;
}

export interface AgentConfig {
  /** The service's address, from the agent's configuration, e.g. new URL('https://devices.example.com/'). */
  service: URL;
  /** From secure storage. */
  credential: string;
  deviceTag: string;
  imei: string;
  appVersion: string;
  simNumber: () => string | null;
  /** The platform's part: show a message, lock the screen. */
  carryOut: (command: Command) => Promise<void>;
  /** The platform's HTTP client; fetch when left out. */
  fetch?: typeof fetch;
}

/** The service refused the check-in (its status and code); the agent keeps its state. */
export class CheckinRefused extends Error {}
/** An answer not taken as the state, and why; the agent keeps its state. */
export class AnswerRefused extends Error {}

/** 24 random bytes as 32 base64url characters. */
function freshNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

export class DeviceAgent {
  private readonly keys: ReturnType<typeof createRemoteJWKSet>;
  /** The nonce of the latest request sent: only its answer may be taken. */
  private latestNonce: string | null = null;

  constructor(
    private readonly config: AgentConfig,
    public state: AgentState = { last: null, carriedOut: [], unlockCounter: 0 },
  ) {
    this.keys = createRemoteJWKSet(new URL('devices/v1/jwks.json', config.service));
  }

  /** One check-in: the accepted answer's data, its new commands carried out. Throws, keeping the state, otherwise. */
  async checkIn(): Promise<CheckinData> {
    const nonce = freshNonce();
    this.latestNonce = nonce;
    const acknowledged = [...this.state.carriedOut];
    const { imei, appVersion } = this.config;
    const response = await (this.config.fetch ?? fetch)(new URL('devices/v1/checkin', this.config.service), {
      method: 'POST',
      headers: { authorization: `Bearer ${this.config.credential}`, 'content-type': 'application/json' },
      body: JSON.stringify({ imei, simNumber: this.config.simNumber(), appVersion, acknowledged, nonce }),
    });
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as { error?: { code?: string } } | null;
      throw new CheckinRefused(`check-in refused: ${response.status} ${body?.error?.code ?? ''}`);
    }
    const answer = (await response.json()) as { data: unknown; signature: string };
    const data = await this.verified(answer, nonce);
    // The service recorded this request's acknowledgements before it chose the answer's commands.
    this.state.carriedOut = this.state.carriedOut.filter((id) => !acknowledged.includes(id));
    this.state.last = { data, jws: answer.signature };
    // Every code printed before this answer is void from now on, a reversed payment's among them:
    // the answer's lockAt already holds every payment that stands.
    this.state.unlockCounter = Math.max(this.state.unlockCounter, data.unlockCodesThrough);
    for (const command of data.commands) {
      if (this.state.carriedOut.includes(command.id)) continue; // carried out before: once only
      await this.config.carryOut(command);
      this.state.carriedOut.push(command.id);
    }
    return data;
  }

  private async verified(answer: { data: unknown; signature: string }, nonce: string): Promise<CheckinData> {
    // The key named by the header's kid; an unknown kid makes jose fetch the key set again.
    const { payload, protectedHeader } = await compactVerify(answer.signature, this.keys, {
      algorithms: ['EdDSA', 'ES256'],
    });
    if (protectedHeader.typ !== CHECKIN_ANSWER_TYPE) throw new AnswerRefused('not a check-in answer (typ)');
    const data = JSON.parse(new TextDecoder().decode(payload)) as CheckinData;
    if (!isDeepStrictEqual(data, answer.data)) throw new AnswerRefused('data is not what was signed');
    if (data.deviceTag !== this.config.deviceTag) throw new AnswerRefused('an answer for another device');
    if (data.nonce !== nonce || nonce !== this.latestNonce)
      throw new AnswerRefused('not the answer to the latest request: kept and replayed, or overtaken');
    if (data.sequence <= (this.state.last?.data.sequence ?? 0))
      throw new AnswerRefused('not newer than the last answer accepted');
    return data;
  }
}

/** Whether the phone must be locked at `serviceNow` (issuedAt + monotonic time elapsed since). */
export function mustLock(data: CheckinData, serviceNow: number, unlockedUntil: number | null): boolean {
  if (data.lockState === 'RELEASED') return false;
  if (unlockedUntil !== null && serviceNow < unlockedUntil) return false;
  if (data.lockState === 'LOCKED') return true;
  if (data.offlineLockAt !== null && serviceNow >= data.offlineLockAt) return true;
  return data.lockAt !== null && serviceNow >= data.lockAt;
}
