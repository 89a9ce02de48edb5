// One order (docs/decisions.md 46): built in its own change.
import { View } from '../ui.js';

export function Order(props: { orderId: string }) {
  return <View title={`Order ${props.orderId}`}>{null}</View>;
}
