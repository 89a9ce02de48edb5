// "Send a command to the device" (partner and operator keys): the command, with its hours or its
// message, carried by the device's next check-ins; the commands are read again once it is sent.
import { useState } from 'react';
import sendDeviceCommandDocument from '../../../operations/orderSendDeviceCommand.graphql';
import type {
  ConsoleOrderSendDeviceCommandMutation,
  ConsoleOrderSendDeviceCommandMutationVariables,
  DeviceCommandType,
} from '../../__generated__/operations.js';
import { words } from '../../format.js';
import { ErrorNote } from '../../ui.js';
import type { OrderActionsContext } from './types.js';
import { useMutation } from './useMutation.js';

const COMMANDS: ReadonlyArray<readonly [DeviceCommandType, string]> = [
  ['LOCK_NOW', 'Lock now'],
  ['UNLOCK_FOR_HOURS', 'Unlock for hours'],
  ['SHOW_MESSAGE', 'Show a message'],
  ['RELEASE', 'Release'],
];

export function DeviceCommandAction(props: { context: OrderActionsContext }) {
  const { context } = props;
  const [type, setType] = useState<DeviceCommandType>('LOCK_NOW');
  const [message, setMessage] = useState('');
  const [hours, setHours] = useState('24');
  const [notice, setNotice] = useState<string | null>(null);
  const sending = useMutation<ConsoleOrderSendDeviceCommandMutation, ConsoleOrderSendDeviceCommandMutationVariables>(
    sendDeviceCommandDocument,
  );

  const send = async () => {
    setNotice(null);
    // hours for UNLOCK_FOR_HOURS only, message for SHOW_MESSAGE only: the input's rule.
    const answer = await sending.run({
      input: {
        deviceId: context.order.device.id,
        type,
        hours: type === 'UNLOCK_FOR_HOURS' ? (hours.trim() === '' ? null : Number(hours)) : undefined,
        message: type === 'SHOW_MESSAGE' ? message : undefined,
      },
    });
    if (!answer) return;
    const command = answer.sendDeviceCommand;
    setNotice(`Command sent: ${words(command.type)} (${words(command.status)})`);
    context.reread();
  };

  return (
    <fieldset>
      <legend>Send a command to the device</legend>
      <p className="row">
        <label>
          Command{' '}
          <select value={type} onChange={(event) => setType(event.target.value as DeviceCommandType)}>
            {COMMANDS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </p>
      {type === 'SHOW_MESSAGE' ? (
        <p className="row">
          <label>
            Message <textarea rows={3} value={message} onChange={(event) => setMessage(event.target.value)} />
          </label>
        </p>
      ) : null}
      {type === 'UNLOCK_FOR_HOURS' ? (
        <p className="row">
          <label>
            Hours{' '}
            <input
              type="number"
              min={1}
              max={720}
              step={1}
              value={hours}
              onChange={(event) => setHours(event.target.value)}
            />
          </label>
        </p>
      ) : null}
      <p className="row">
        <button type="button" className="primary" disabled={sending.busy} onClick={() => void send()}>
          Send command
        </button>
      </p>
      {sending.error ? <ErrorNote error={sending.error} /> : null}
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
    </fieldset>
  );
}
