// Locked devices (docs/decisions.md 46): the devices of the partner's orders that stand LOCKED now,
// of every store or of one, a page at a time with the graph's cursors.
import { useRef, useState } from 'react';
import lockedDevicesDocument from '../../operations/lockedDevices.graphql';
import partnerMerchantsDocument from '../../operations/partnerMerchants.graphql';
import type {
  ConsoleLockedDevicesQuery,
  ConsoleLockedDevicesQueryVariables,
  ConsolePartnerMerchantsQuery,
  ConsolePartnerMerchantsQueryVariables,
} from '../__generated__/operations.js';
import { money, time } from '../format.js';
import { hrefOf } from '../route.js';
import { ErrorNote, Loading, Pager } from '../ui.js';
import { useAnswer } from '../useAnswer.js';
import { useCursorPages } from './cursorPages.js';

const PAGE_SIZE = 25;
/** The stores offered in the merchant filter: a partner's chain rarely has more, and a list longer is no picker. */
const MERCHANTS_LISTED = 500;

/** `listPartnerId`: what the listing passes (an operator's pick; null for a partner key, implied by it). */
export function LockedDevices(props: { partnerId: string; listPartnerId: string | null }) {
  const [merchantId, setMerchantId] = useState('');
  const pages = useCursorPages(merchantId);
  const heading = useRef<HTMLHeadingElement>(null);
  const merchants = useAnswer<ConsolePartnerMerchantsQuery, ConsolePartnerMerchantsQueryVariables>(
    partnerMerchantsDocument,
    { partnerId: props.partnerId, first: MERCHANTS_LISTED },
  );
  const answer = useAnswer<ConsoleLockedDevicesQuery, ConsoleLockedDevicesQueryVariables>(lockedDevicesDocument, {
    partnerId: props.listPartnerId,
    merchantId: merchantId || null,
    first: PAGE_SIZE,
    after: pages.after,
  });
  const orders = answer.data?.financeOrders;

  return (
    <section aria-labelledby="locked-devices">
      <h2 id="locked-devices" tabIndex={-1} ref={heading}>
        Locked devices
      </h2>
      <div className="row">
        <label>
          Merchant{' '}
          <select value={merchantId} onChange={(event) => setMerchantId(event.target.value)}>
            <option value="">All merchants</option>
            {(merchants.data?.partner?.merchants ?? []).map((merchant) => (
              <option key={merchant.id} value={merchant.id}>
                {merchant.name} ({merchant.id})
              </option>
            ))}
          </select>
        </label>
      </div>
      {merchants.error ? <ErrorNote error={merchants.error} /> : null}
      {answer.error ? <ErrorNote error={answer.error} /> : null}
      {answer.loading ? <Loading what="locked devices" /> : null}
      {orders ? (
        <>
          {orders.nodes.length === 0 ? (
            <p>{pages.page === 1 ? 'No device is locked.' : 'No more locked devices.'}</p>
          ) : (
            <div className="table-scroll">
              <table>
                <caption>Locked devices</caption>
                <thead>
                  <tr>
                    <th scope="col">Device tag</th>
                    <th scope="col">IMEI</th>
                    <th scope="col">Model</th>
                    <th scope="col">Customer</th>
                    <th scope="col">Merchant</th>
                    <th scope="col">Paid through</th>
                    <th scope="col">Locked at</th>
                    <th scope="col" className="number">
                      Remaining balance
                    </th>
                    <th scope="col">Order</th>
                  </tr>
                </thead>
                <tbody>
                  {orders.nodes.map((order) => (
                    <tr key={order.id}>
                      <th scope="row" className="nowrap">
                        {order.device.tag}
                      </th>
                      <td>{order.device.imei}</td>
                      <td>{order.device.model.name}</td>
                      <td>{order.customer.name}</td>
                      <td>{order.merchant.name}</td>
                      <td>{time(order.paidThrough)}</td>
                      <td>{time(order.lockAt)}</td>
                      <td className="number">{money(order.remainingBalance, order.currency)}</td>
                      <td className="nowrap">
                        <a href={hrefOf.order(order.id)}>Order {order.id}</a>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pager
            label="Locked devices"
            page={pages.page}
            hasNextPage={orders.pageInfo.hasNextPage}
            onNext={() => pages.next(orders.pageInfo.endCursor)}
            onFirst={pages.first}
            top={heading}
          />
        </>
      ) : null}
    </section>
  );
}
