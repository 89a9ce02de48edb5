// demo-vendor's notifications through the REST door, as a vendor sends them: an access token bought
// once with its key, then each notification's body, paymentVendor and currency (USD) filled in.
import type { TestService } from './service.js';

export type Notify = (
  /** The body's other members: an object, or JSON text of members (to write a number as `4.000`). */
  members: Record<string, unknown> | string,
) => Promise<{ status: number; body: any }>;

/** A notifier for the service `service()` answers when it is first called. */
export function demoVendorNotifier(service: () => TestService): Notify {
  let token: string | undefined;
  return async (members) => {
    if (!token) {
      const bought = await service().request('/payments/v1/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiKey: 'demo-vendor-key' }),
      });
      token = ((await bought.json()) as { data: { access_token: string } }).data.access_token;
    }
    const text = typeof members === 'string' ? members : JSON.stringify(members).slice(1, -1);
    const response = await service().request('/payments/v1/notification', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: `{"paymentVendor":"demo-vendor","currency":"USD",${text}}`,
    });
    return { status: response.status, body: (await response.json()) as any };
  };
}
