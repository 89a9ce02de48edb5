// The sandbox view (docs/decisions.md 46): built in its own change.
import { View } from '../ui.js';

export function Sandbox() {
  return <View title="Sandbox">{null}</View>;
}
