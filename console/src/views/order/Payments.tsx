// The order's payments, each with its reversal, and "Reverse" for those the key may reverse now: not
// reversed, inside the window on the partner's clock, and operators any, partner keys in-store ones
// (decisions.md 44). The graph decides; the button is shown only where it could say yes.
import { type ReactNode, useEffect, useRef, useState } from 'react';
import reversePaymentDocument from '../../../operations/orderReversePayment.graphql';
import type {
  ConsoleOrderReversePaymentMutation,
  ConsoleOrderReversePaymentMutationVariables,
} from '../../__generated__/operations.js';
import { money, time, words } from '../../format.js';
import { freshIdempotencyKey } from '../../graph.js';
import { ErrorNote } from '../../ui.js';
import type { OrderActionsContext, PaymentData } from './types.js';
import { useMutation } from './useMutation.js';

const COLUMNS = 8;

function mayReverse(payment: PaymentData, context: OrderActionsContext): boolean {
  if (payment.reversal || context.order.closedAt != null) return false;
  if (payment.reversibleUntil <= context.partnerNow()) return false;
  return context.kind === 'OPERATOR' || payment.channel === 'IN_STORE';
}

function takenBy(payment: PaymentData): string {
  if (payment.channel === 'VENDOR')
    return `${payment.paymentVendor?.displayName ?? '-'}${payment.vendorReference ? ` (${payment.vendorReference})` : ''}`;
  return [payment.merchant?.name, payment.salesClerk?.name].filter(Boolean).join(', ') || '-';
}

export function PaymentsSection(props: { context: OrderActionsContext }) {
  const { context } = props;
  const { order } = context;
  const [reversing, setReversing] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const reversal = useMutation<ConsoleOrderReversePaymentMutation, ConsoleOrderReversePaymentMutationVariables>(
    reversePaymentDocument,
  );

  const open = (paymentId: string) => {
    reversal.clear();
    setNotice(null);
    setReversing(paymentId);
  };
  const confirm = async (paymentId: string, reason: string) => {
    // A fresh key per confirmation: each is a request of its own, never taken for the replay of an earlier one.
    const answer = await reversal.run({ input: { paymentId, reason, idempotencyKey: freshIdempotencyKey() } });
    if (!answer) return;
    setReversing(null);
    setNotice(`Payment ${answer.reversePayment.payment.id} reversed`);
    context.reread();
  };

  return (
    <section aria-labelledby="order-payments">
      <h2 id="order-payments">Payments</h2>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {order.payments.length === 0 ? (
        <p>No payment yet.</p>
      ) : (
        <table>
          <caption>Payments</caption>
          <thead>
            <tr>
              <th scope="col">Payment</th>
              <th scope="col">Time</th>
              <th scope="col" className="number">
                Amount
              </th>
              <th scope="col">Channel</th>
              <th scope="col">Taken by</th>
              <th scope="col">Reversible until</th>
              <th scope="col">Reversal</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {order.payments.map((payment) => (
              <PaymentRows
                key={payment.id}
                payment={payment}
                currency={order.currency}
                reversible={mayReverse(payment, context)}
                form={
                  reversing === payment.id ? (
                    <ReverseForm
                      paymentId={payment.id}
                      busy={reversal.busy}
                      error={reversal.error}
                      onConfirm={(reason) => void confirm(payment.id, reason)}
                      onCancel={() => setReversing(null)}
                    />
                  ) : null
                }
                onReverse={() => open(payment.id)}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function PaymentRows(props: {
  payment: PaymentData;
  currency: string;
  reversible: boolean;
  form: ReactNode;
  onReverse(): void;
}) {
  const { payment, currency, form } = props;
  // Closing the form (Cancel) gives the focus back to the button that opened it.
  const reverseButton = useRef<HTMLButtonElement>(null);
  const formWasOpen = useRef(false);
  useEffect(() => {
    if (formWasOpen.current && !form) reverseButton.current?.focus();
    formWasOpen.current = Boolean(form);
  }, [form]);
  return (
    <>
      <tr>
        <th scope="row">{payment.id}</th>
        <td>{time(payment.time)}</td>
        <td className="number">{money(payment.amount, currency)}</td>
        <td>{words(payment.channel)}</td>
        <td>{takenBy(payment)}</td>
        <td>{time(payment.reversibleUntil)}</td>
        <td className="wrap">
          {payment.reversal ? `Reversed ${time(payment.reversal.time)}: ${payment.reversal.reason}` : 'Not reversed'}
        </td>
        <td>
          {props.reversible && !form ? (
            <button
              ref={reverseButton}
              type="button"
              aria-label={`Reverse payment ${payment.id}`}
              onClick={props.onReverse}
            >
              Reverse
            </button>
          ) : null}
        </td>
      </tr>
      {form ? (
        <tr>
          <td colSpan={COLUMNS}>{form}</td>
        </tr>
      ) : null}
    </>
  );
}

/** The inline form of one reversal: its reason, focused when it opens. */
function ReverseForm(props: {
  paymentId: string;
  busy: boolean;
  error: unknown;
  onConfirm(reason: string): void;
  onCancel(): void;
}) {
  const [reason, setReason] = useState('');
  const reasonInput = useRef<HTMLInputElement>(null);
  useEffect(() => reasonInput.current?.focus(), []);
  return (
    <fieldset className="inline-form">
      <legend>Reverse payment {props.paymentId}</legend>
      <label>
        Reason <input ref={reasonInput} value={reason} onChange={(event) => setReason(event.target.value)} />
      </label>{' '}
      <button type="button" className="danger" disabled={props.busy} onClick={() => props.onConfirm(reason)}>
        Confirm reversal
      </button>{' '}
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
      {props.error ? <ErrorNote error={props.error} /> : null}
    </fieldset>
  );
}
