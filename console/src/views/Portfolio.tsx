// The portfolio view (docs/decisions.md 46): built in its own change.
import { View } from '../ui.js';

export function Portfolio() {
  return <View title="Portfolio">{null}</View>;
}
