// STAND-IN (owner F): what time it is for each partner; the coordinator keeps F's version.

/** What time it is for each partner: real time, or its sandbox clock outside production. Sync: no statement. */
export interface PartnerClocks {
  nowFor(partnerId: string): Date;
}

export const REAL_CLOCKS: PartnerClocks = { nowFor: () => new Date() };
