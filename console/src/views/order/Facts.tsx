// What the order is: its customer (name and phone only: the personal data stays unasked), its device,
// its terms and what the customer can pay now. Read-only sections.
import type { ReactNode } from 'react';
import { money, time, words } from '../../format.js';
import { Status } from '../../ui.js';
import type { OrderData } from './types.js';

/** A list of facts: each a term and its value. */
function Facts(props: { label: string; facts: ReadonlyArray<readonly [string, ReactNode]> }) {
  return (
    <dl className="facts" aria-label={props.label}>
      {props.facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function CustomerSection(props: { order: OrderData }) {
  const { customer } = props.order;
  return (
    <section aria-labelledby="order-customer">
      <h2 id="order-customer">Customer</h2>
      <Facts
        label="Customer"
        facts={[
          ['Name', customer.name],
          ['Phone', customer.phoneNumber],
        ]}
      />
    </section>
  );
}

export function DeviceSection(props: { order: OrderData }) {
  const { device } = props.order;
  const checkin = device.lastCheckin;
  return (
    <section aria-labelledby="order-device">
      <h2 id="order-device">Device</h2>
      <Facts
        label="Device"
        facts={[
          ['Tag', device.tag],
          ['IMEI', device.imei],
          ['Model', `${device.model.name} (${device.model.makeModel})`],
          ['Secure status', device.secureStatus ? <Status value={device.secureStatus} /> : '-'],
          ['Last seen', time(device.lastSeen)],
          [
            'Last check-in',
            checkin
              ? `${time(checkin.at)}${checkin.appVersion ? `, lock agent ${checkin.appVersion}` : ''}`
              : 'Never checked in',
          ],
        ]}
      />
    </section>
  );
}

export function TermsSection(props: { order: OrderData }) {
  const { order } = props;
  const amount = (value: string) => money(value, order.currency);
  const facts: Array<readonly [string, ReactNode]> = [
    ['Status', <Status key="status" value={order.status} />],
    ['Currency', order.currency],
    ['Purchase', amount(order.purchaseAmount)],
    ['Down payment', amount(order.downPayment)],
    ['Financed', amount(order.financeAmount)],
    ['Monthly', amount(order.monthlyCost)],
    ['Weekly', amount(order.weeklyCost)],
    ['Months', String(order.months)],
    ['Repayable total', amount(order.repayableTotal)],
    ['Total paid', amount(order.totalPaid)],
    ['Remaining balance', amount(order.remainingBalance)],
    ['Made', time(order.time)],
    ['Paid through', time(order.paidThrough)],
    ['Locks at', order.lockAt == null ? 'Never: fully paid' : time(order.lockAt)],
  ];
  if (order.releaseAt != null) facts.push(['Released at', time(order.releaseAt)]);
  if (order.closedAt != null) {
    facts.push(['Closed', time(order.closedAt)]);
    facts.push(['Closed because', order.closedReason ? words(order.closedReason) : '-']);
    if (order.closedNote) facts.push(['Note on closing', order.closedNote]);
  }
  return (
    <section aria-labelledby="order-terms">
      <h2 id="order-terms">Terms</h2>
      <Facts label="Terms" facts={facts} />
    </section>
  );
}

export function RepaymentSection(props: { order: OrderData }) {
  const { order } = props;
  const { repayment } = order;
  return (
    <section aria-labelledby="order-repayment">
      <h2 id="order-repayment">Repayment options</h2>
      <Facts
        label="Repayment"
        facts={[
          ['Minimum payment', money(repayment.minimumPaymentAmount, order.currency)],
          ['Full payoff', money(repayment.fullPayoffAmount, order.currency)],
        ]}
      />
      {repayment.options.length === 0 ? (
        <p>Nothing remains to pay: there is no option.</p>
      ) : (
        <table>
          <caption>Repayment options</caption>
          <thead>
            <tr>
              <th scope="col" className="number">
                Days paid
              </th>
              <th scope="col" className="number">
                Amount
              </th>
              <th scope="col">Locks at once paid</th>
            </tr>
          </thead>
          <tbody>
            {repayment.options.map((option) => (
              <tr key={option.daysPaid}>
                <td className="number">{option.daysPaid}</td>
                <td className="number">{money(option.amount, order.currency)}</td>
                <td>{time(option.lockAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
