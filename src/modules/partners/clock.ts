// STAND-IN: what time it is for each partner, as the split of the work names it; the foundation's file replaces this one.

/** What time it is for each partner: real time, or its sandbox clock outside production. Sync: no statement. */
export interface PartnerClocks {
  nowFor(partnerId: string): Date;
}

export const REAL_CLOCKS: PartnerClocks = { nowFor: () => new Date() };
