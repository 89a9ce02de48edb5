// The devices view (docs/decisions.md 46): the devices locked now and the devices gone silent, each
// list with its own filter and its own pages.
import { useSession } from '../session.js';
import { View } from '../ui.js';
import { LockedDevices } from './LockedDevices.js';
import { SilentDevices } from './SilentDevices.js';

export function Devices() {
  const { kind, partner } = useSession();
  if (!partner) return <View title="Devices">{null}</View>;
  // Operators name the partner they picked; a partner key's listings are its own partner's already.
  const listPartnerId = kind === 'OPERATOR' ? partner.id : null;
  return (
    <View title="Devices">
      <LockedDevices key={`locked-${partner.id}`} partnerId={partner.id} listPartnerId={listPartnerId} />
      <SilentDevices key={`silent-${partner.id}`} listPartnerId={listPartnerId} />
    </View>
  );
}
