// The live view (docs/decisions.md 46): built in its own change.
import { View } from '../ui.js';

export function LiveView() {
  return <View title="Live">{null}</View>;
}
