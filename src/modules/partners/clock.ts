// What time it is for a partner (decisions.md 15): real time, or outside production the partner's
// sandbox clock, an offset from real time that only moves forward until it is reset. The rules of
// moving it live here; where the offsets are kept is policies.ts, the audited change ../partnerPolicy/changes.ts.
import { AppError, forbidden } from '../../kernel/errors.js';

/** What time it is for each partner: real time, or its sandbox clock outside production. Sync: no statement. */
export interface PartnerClocks {
  nowFor(partnerId: string): Date;
}

/** A partner's sandbox clock as the graph shows it. */
export interface SandboxClockView {
  partnerId: string;
  now: Date;
  realNow: Date;
}

const sandboxClockBackwards = (now: Date, partnerNow: Date) =>
  new AppError(
    'SANDBOX_CLOCK_BACKWARDS',
    `a sandbox clock only moves forward: ${now.toISOString()} is before the partner's time, ${partnerNow.toISOString()}`,
    { partnerNow: Math.floor(partnerNow.getTime() / 1000) },
  );

/** Production keeps every clock real: the mutations are refused there. */
export function requireSandbox(production: boolean): void {
  if (production) throw forbidden('sandbox clocks are turned off in production: every clock is real');
}

/**
 * The offset that puts the partner at `now`, given real time and the partner's current offset (0 when
 * on real time): refused when `now` is before the partner's current time.
 */
export function offsetToReach(now: Date, realNow: Date, currentOffsetMs: number): number {
  const partnerNow = new Date(realNow.getTime() + currentOffsetMs);
  // The graph gives times in whole seconds: the partner's current second is not "before" it.
  if (now.getTime() < Math.floor(partnerNow.getTime() / 1000) * 1000) throw sandboxClockBackwards(now, partnerNow);
  return now.getTime() - realNow.getTime();
}
