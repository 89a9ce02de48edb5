// The order's payment references (decisions.md 17): the table, with "Cancel" for the open ones, and
// the action that makes one, for an amount or for the days of a repayment option.
import { useState } from 'react';
import cancelPaymentReferenceDocument from '../../../operations/orderCancelPaymentReference.graphql';
import createPaymentReferenceDocument from '../../../operations/orderCreatePaymentReference.graphql';
import type {
  ConsoleOrderCancelPaymentReferenceMutation,
  ConsoleOrderCancelPaymentReferenceMutationVariables,
  ConsoleOrderCreatePaymentReferenceMutation,
  ConsoleOrderCreatePaymentReferenceMutationVariables,
} from '../../__generated__/operations.js';
import { money, time, words } from '../../format.js';
import { ErrorNote } from '../../ui.js';
import type { OrderActionsContext } from './types.js';
import { useMutation } from './useMutation.js';

export function PaymentReferencesSection(props: { context: OrderActionsContext }) {
  const { context } = props;
  const { order } = context;
  const references = order.paymentReferences.nodes;
  const [notice, setNotice] = useState<string | null>(null);
  const cancelling = useMutation<
    ConsoleOrderCancelPaymentReferenceMutation,
    ConsoleOrderCancelPaymentReferenceMutationVariables
  >(cancelPaymentReferenceDocument);

  const cancel = async (code: string) => {
    setNotice(null);
    const answer = await cancelling.run({ code });
    if (!answer) return;
    setNotice(`Payment reference ${answer.cancelPaymentReference.code} cancelled`);
    context.reread();
  };

  return (
    <section aria-labelledby="order-references">
      <h2 id="order-references">Payment references</h2>
      {cancelling.error ? <ErrorNote error={cancelling.error} /> : null}
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {references.length === 0 ? (
        <p>No payment reference yet.</p>
      ) : (
        <table>
          <caption>Payment references</caption>
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col" className="number">
                Amount
              </th>
              <th scope="col" className="number">
                Days paid
              </th>
              <th scope="col">Expires</th>
              <th scope="col">Status</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {references.map((reference) => (
              <tr key={reference.id}>
                <th scope="row" className="code">
                  {reference.code}
                </th>
                <td className="number">{money(reference.amount, order.currency)}</td>
                <td className="number">{reference.daysPaid}</td>
                <td>{time(reference.expiresAt)}</td>
                <td>{words(reference.status)}</td>
                <td>
                  {reference.status === 'OPEN' ? (
                    <button
                      type="button"
                      aria-label={`Cancel payment reference ${reference.code}`}
                      disabled={cancelling.busy}
                      onClick={() => void cancel(reference.code)}
                    >
                      Cancel
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** "Payment reference": exactly one of an amount and the days of a repayment option (the input's rule). */
export function CreatePaymentReferenceAction(props: { context: OrderActionsContext }) {
  const { context } = props;
  const { order } = context;
  const options = order.repayment.options;
  const [amount, setAmount] = useState('');
  const [days, setDays] = useState(() => String(options[0]?.daysPaid ?? ''));
  const [notice, setNotice] = useState<string | null>(null);
  const creating = useMutation<
    ConsoleOrderCreatePaymentReferenceMutation,
    ConsoleOrderCreatePaymentReferenceMutationVariables
  >(createPaymentReferenceDocument);

  const create = async () => {
    setNotice(null);
    const typed = amount.trim();
    const answer = await creating.run({
      input:
        typed !== ''
          ? { financeOrderId: order.id, amount: typed }
          : { financeOrderId: order.id, daysPaid: days === '' ? null : Number(days) },
    });
    if (!answer) return;
    const reference = answer.createPaymentReference;
    setAmount('');
    setNotice(
      `Payment reference ${reference.code} made: ${money(reference.amount, reference.currency)} for ${reference.daysPaid} days, until ${time(reference.expiresAt)}`,
    );
    context.reread();
  };

  return (
    <fieldset>
      <legend>Payment reference</legend>
      <p className="row">
        <label>
          Amount{' '}
          <input
            inputMode="decimal"
            value={amount}
            aria-describedby="reference-amount-hint"
            onChange={(event) => setAmount(event.target.value)}
          />
        </label>
      </p>
      <p id="reference-amount-hint" className="hint">
        In {order.currency}, at most the remaining balance; leave it empty to use a repayment option.
      </p>
      <p className="row">
        <label>
          Days{' '}
          <select value={days} disabled={amount.trim() !== ''} onChange={(event) => setDays(event.target.value)}>
            {options.map((option) => (
              <option key={option.daysPaid} value={option.daysPaid}>
                {option.daysPaid} days: {money(option.amount, order.currency)}
              </option>
            ))}
          </select>
        </label>
      </p>
      <p className="row">
        <button type="button" className="primary" disabled={creating.busy} onClick={() => void create()}>
          Create payment reference
        </button>
      </p>
      {creating.error ? <ErrorNote error={creating.error} /> : null}
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
    </fieldset>
  );
}
