// Silent devices (docs/decisions.md 22 and 46): the partner's devices not heard from for at least N
// days (1 to 3,650, as the graph takes them), a page at a time with the graph's cursors.
import { useId, useRef, useState } from 'react';
import silentDevicesDocument from '../../operations/silentDevices.graphql';
import type { ConsoleSilentDevicesQuery, ConsoleSilentDevicesQueryVariables } from '../__generated__/operations.js';
import { time } from '../format.js';
import { hrefOf } from '../route.js';
import { ErrorNote, Loading, Pager, Status } from '../ui.js';
import { useAnswer } from '../useAnswer.js';
import { useCursorPages } from './cursorPages.js';

const PAGE_SIZE = 25;
const DEFAULT_DAYS = 7;
const MIN_DAYS = 1;
const MAX_DAYS = 3650;

/** The days typed, when the graph would take them: a whole number from 1 to 3,650. */
function daysOf(text: string): number | null {
  if (!/^[0-9]{1,4}$/.test(text.trim())) return null;
  const days = Number(text.trim());
  return days >= MIN_DAYS && days <= MAX_DAYS ? days : null;
}

/** `listPartnerId`: what the listing passes (an operator's pick; null for a partner key, implied by it). */
export function SilentDevices(props: { listPartnerId: string | null }) {
  const [daysText, setDaysText] = useState(String(DEFAULT_DAYS));
  const days = daysOf(daysText);
  const pages = useCursorPages(String(days));
  const heading = useRef<HTMLHeadingElement>(null);
  const hint = useId();
  const answer = useAnswer<ConsoleSilentDevicesQuery, ConsoleSilentDevicesQueryVariables>(
    silentDevicesDocument,
    days === null
      ? null
      : { partnerId: props.listPartnerId, silentForDays: days, first: PAGE_SIZE, after: pages.after },
  );
  const devices = days === null ? undefined : answer.data?.devices;

  return (
    <section aria-labelledby="silent-devices">
      <h2 id="silent-devices" tabIndex={-1} ref={heading}>
        Silent devices
      </h2>
      <div className="row">
        <label>
          Silent for at least{' '}
          <input
            type="number"
            className="days"
            min={MIN_DAYS}
            max={MAX_DAYS}
            step={1}
            value={daysText}
            aria-invalid={days === null}
            aria-describedby={hint}
            onChange={(event) => setDaysText(event.target.value)}
          />{' '}
          days
        </label>
      </div>
      {days === null ? (
        <p id={hint} className="error">
          Give a whole number of days from {MIN_DAYS} to {MAX_DAYS.toLocaleString('en')}.
        </p>
      ) : (
        <p id={hint} className="muted">
          Not heard from since their last check-in, or since their sale if they never checked in; a whole number of days
          from {MIN_DAYS} to {MAX_DAYS.toLocaleString('en')}.
        </p>
      )}
      {answer.error && days !== null ? <ErrorNote error={answer.error} /> : null}
      {answer.loading && days !== null ? <Loading what="silent devices" /> : null}
      {devices ? (
        <>
          {devices.nodes.length === 0 ? (
            <p>
              {pages.page === 1 ? `No device has been silent for ${days} days or more.` : 'No more silent devices.'}
            </p>
          ) : (
            <div className="table-scroll">
              <table>
                <caption>Silent devices</caption>
                <thead>
                  <tr>
                    <th scope="col">Device tag</th>
                    <th scope="col">IMEI</th>
                    <th scope="col">Model</th>
                    <th scope="col">Silent since</th>
                    <th scope="col">Last seen</th>
                    <th scope="col">Status</th>
                    <th scope="col">Customer</th>
                    <th scope="col">Order</th>
                  </tr>
                </thead>
                <tbody>
                  {devices.nodes.map((device) => (
                    <tr key={device.id}>
                      <th scope="row" className="nowrap">
                        {device.tag}
                      </th>
                      <td>{device.imei}</td>
                      <td>{device.model.name}</td>
                      <td className="nowrap">{time(device.silentSince)}</td>
                      <td className="nowrap">{device.lastSeen == null ? 'Never' : time(device.lastSeen)}</td>
                      <td className="nowrap">
                        {device.secureStatus ? <Status value={device.secureStatus} /> : 'No order'}
                      </td>
                      <td>{device.customer?.name ?? '-'}</td>
                      <td className="nowrap">
                        {device.financeOrder ? (
                          <a href={hrefOf.order(device.financeOrder.id)}>Order {device.financeOrder.id}</a>
                        ) : (
                          '-'
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pager
            label="Silent devices"
            page={pages.page}
            hasNextPage={devices.pageInfo.hasNextPage}
            onNext={() => pages.next(devices.pageInfo.endCursor)}
            onFirst={pages.first}
            top={heading}
          />
        </>
      ) : null}
    </section>
  );
}
