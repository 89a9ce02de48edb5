// The order as the view reads it (console/operations/order.graphql), and the pieces the sections take.
import type { ConsoleOrderQuery } from '../../__generated__/operations.js';

export type OrderData = NonNullable<ConsoleOrderQuery['financeOrder']>;
export type PaymentData = OrderData['payments'][number];
export type CommandData = OrderData['device']['commands']['nodes'][number];
export type ReferenceData = OrderData['paymentReferences']['nodes'][number];

/** What a section needs to change the order: who is asking, and how to read the order again. */
export interface OrderActionsContext {
  order: OrderData;
  kind: 'OPERATOR' | 'PARTNER';
  /** The partner's time now, in Unix seconds (its sandbox clock when it has one). */
  partnerNow(): number;
  /** Reads the order (and its device's events) again after a change. */
  reread(): void;
}
