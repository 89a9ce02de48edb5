// The devices view (docs/decisions.md 46): built in its own change.
import { View } from '../ui.js';

export function Devices() {
  return <View title="Devices">{null}</View>;
}
