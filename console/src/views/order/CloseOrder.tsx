// "Close the order" (operators only, decisions.md 44): written off or its device returned, with a
// note; a second button confirms, since a close clears the balance and cannot be undone.
import { useEffect, useRef, useState } from 'react';
import closeOrderDocument from '../../../operations/orderClose.graphql';
import type {
  ConsoleOrderCloseMutation,
  ConsoleOrderCloseMutationVariables,
  FinanceOrderCloseReason,
} from '../../__generated__/operations.js';
import { money, words } from '../../format.js';
import { ErrorNote } from '../../ui.js';
import type { OrderActionsContext } from './types.js';
import { useMutation } from './useMutation.js';

const REASONS: readonly FinanceOrderCloseReason[] = ['WRITE_OFF', 'DEVICE_RETURNED'];

/** open: whether the order may be closed now (still owing); the notice of a close outlives it. */
export function CloseOrderAction(props: { context: OrderActionsContext; open: boolean }) {
  const { context } = props;
  const { order } = context;
  const [reason, setReason] = useState<FinanceOrderCloseReason>('WRITE_OFF');
  const [note, setNote] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const closing = useMutation<ConsoleOrderCloseMutation, ConsoleOrderCloseMutationVariables>(closeOrderDocument);
  const confirmButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);

  const close = async () => {
    const answer = await closing.run({ input: { financeOrderId: order.id, reason, note } });
    setConfirming(false);
    if (!answer) return;
    setNotice(`Order ${answer.closeFinanceOrder.id} closed: ${words(answer.closeFinanceOrder.status)}`);
    context.reread();
  };

  if (notice)
    return (
      <p className="notice" role="status">
        {notice}
      </p>
    );
  if (!props.open) return null;
  return (
    <fieldset>
      <legend>Close the order</legend>
      <p className="row">
        <label>
          Reason{' '}
          <select
            value={reason}
            onChange={(event) => {
              setReason(event.target.value as FinanceOrderCloseReason);
              setConfirming(false);
            }}
          >
            {REASONS.map((value) => (
              <option key={value} value={value}>
                {words(value)}
              </option>
            ))}
          </select>
        </label>
      </p>
      <p className="row">
        <label>
          Note <textarea rows={3} value={note} onChange={(event) => setNote(event.target.value)} />
        </label>
      </p>
      {confirming ? (
        <>
          <p>
            Close order {order.id} ({words(reason).toLowerCase()})? Its balance of{' '}
            {money(order.remainingBalance, order.currency)} is cleared, for good.
          </p>
          <p className="row">
            <button
              ref={confirmButton}
              type="button"
              className="danger"
              disabled={closing.busy}
              onClick={() => void close()}
            >
              Confirm closing
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Do not close
            </button>
          </p>
        </>
      ) : (
        <p className="row">
          <button
            type="button"
            className="danger"
            onClick={() => {
              closing.clear();
              setConfirming(true);
            }}
          >
            Close order
          </button>
        </p>
      )}
      {closing.error ? <ErrorNote error={closing.error} /> : null}
    </fieldset>
  );
}
