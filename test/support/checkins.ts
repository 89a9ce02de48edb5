// A device's check-in as the device door takes it (docs/device-agent.md), for the suites that count or
// plan its statements: the demo device's report, a fresh nonce, the commands it acknowledges.
import { randomBytes } from 'node:crypto';
import { DEMO_DEVICE_IMEI } from '../../src/fixtures/demoIds.js';

export const CHECKIN_PATH = '/devices/v1/checkin';

/** The request of one check-in of the demo device with `credential`, acknowledging `acknowledged`. */
export function demoCheckIn(credential: string, acknowledged: readonly string[] = []): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
    body: JSON.stringify({
      imei: DEMO_DEVICE_IMEI,
      appVersion: '1.0.0',
      acknowledged,
      nonce: randomBytes(24).toString('base64url'),
    }),
  };
}
