// One order (docs/decisions.md 46): its customer, device and terms, what can be paid, its story merged
// into one timeline, its payments and references, and the actions the key may take. What the key may
// not see is what the graph does not answer: another partner's order is null, said "No order".
import { useCallback, useMemo } from 'react';
import orderDocument from '../../operations/order.graphql';
import deviceEventsDocument from '../../operations/orderDeviceEvents.graphql';
import type {
  ConsoleOrderDeviceEventsQuery,
  ConsoleOrderDeviceEventsQueryVariables,
  ConsoleOrderQuery,
  ConsoleOrderQueryVariables,
} from '../__generated__/operations.js';
import { useSession } from '../session.js';
import { ErrorNote, Loading, View } from '../ui.js';
import { useAnswer } from '../useAnswer.js';
import { CloseOrderAction } from './order/CloseOrder.js';
import { DeviceCommandAction } from './order/DeviceCommand.js';
import { CustomerSection, DeviceSection, RepaymentSection, TermsSection } from './order/Facts.js';
import { CreatePaymentReferenceAction, PaymentReferencesSection } from './order/PaymentReferences.js';
import { PaymentsSection } from './order/Payments.js';
import { TimelineSection } from './order/Timeline.js';
import type { OrderActionsContext, OrderData } from './order/types.js';

export function Order(props: { orderId: string }) {
  const { orderId } = props;
  const session = useSession();
  const partnerId = session.partner?.id ?? null;
  const answer = useAnswer<ConsoleOrderQuery, ConsoleOrderQueryVariables>(
    orderDocument,
    partnerId ? { id: orderId, partnerId } : null,
  );
  const order = answer.data?.financeOrder ?? null;
  const deviceId = order?.device.id ?? null;
  const events = useAnswer<ConsoleOrderDeviceEventsQuery, ConsoleOrderDeviceEventsQueryVariables>(
    deviceEventsDocument,
    deviceId ? { deviceId } : null,
  );
  const { reload: reloadOrder } = answer;
  const { reload: reloadEvents } = events;
  const reread = useCallback(() => {
    reloadOrder();
    reloadEvents();
  }, [reloadOrder, reloadEvents]);

  // The partner's time (an operator's: the picked partner's): its sandbox clock's offset from real time.
  const clock = answer.data?.partner?.sandboxClock ?? null;
  const partnerNow = useMemo(() => {
    const offset = clock ? clock.now - clock.realNow : 0;
    return () => Math.floor(Date.now() / 1000) + offset;
  }, [clock]);

  const title = `Order ${orderId}`;
  if (!answer.data) {
    return (
      <View title={title}>{answer.error ? <ErrorNote error={answer.error} /> : <Loading what="the order" />}</View>
    );
  }
  if (!order) {
    return (
      <View title={title}>
        <p>No order {orderId} for this key.</p>
      </View>
    );
  }
  const context: OrderActionsContext = { order, kind: session.kind, partnerNow, reread };
  return (
    <View title={title}>
      <div className="order">
        {answer.error ? <ErrorNote error={answer.error} /> : null}
        <div className="order-facts">
          <CustomerSection order={order} />
          <DeviceSection order={order} />
          <TermsSection order={order} />
          <RepaymentSection order={order} />
        </div>
        <TimelineSection order={order} events={events.data?.device?.events.nodes ?? []} eventsError={events.error} />
        <PaymentsSection context={context} />
        <PaymentReferencesSection context={context} />
        <ActionsSection context={context} />
      </div>
    </View>
  );
}

/** An order still owing something: a reference can be made, and an operator may close it. */
const isOwing = (order: OrderData): boolean => order.closedAt == null && !order.fullyPaid;

function ActionsSection(props: { context: OrderActionsContext }) {
  const { context } = props;
  const { order, kind } = context;
  return (
    <section aria-labelledby="order-actions">
      <h2 id="order-actions">Actions</h2>
      <div className="actions">
        <DeviceCommandAction context={context} />
        {isOwing(order) ? <CreatePaymentReferenceAction context={context} /> : null}
        {kind === 'OPERATOR' ? <CloseOrderAction context={context} open={isOwing(order)} /> : null}
      </div>
    </section>
  );
}
