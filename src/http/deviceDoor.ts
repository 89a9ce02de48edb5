// The device door (docs/decisions.md 19): POST /devices/v1/checkin, where a device's lock agent presents
// its credential and what it sees, and is answered its lock state signed; GET /devices/v1/jwks.json,
// the keys that verify those answers. A device credential opens this door only, and this door takes
// nothing else. Errors are rendered by the one renderer, in this door's body.
import express, { type Request, type Response } from 'express';
import { AppError, invalidDeviceCredential, rateLimited } from '../kernel/errors.js';
import { checkIn, parseCheckinReport } from '../modules/deviceDoor/checkin.js';
import { couldBeDeviceCredential, deviceOfCredential } from '../modules/deviceDoor/credentials.js';
import type { DeviceSigner } from '../modules/deviceDoor/signing.js';
import type { PartnerPolicies } from '../modules/partners/policies.js';
import type { ServiceDeps } from '../pipeline/context.js';
import { bearerCredential } from './credentials.js';
import { allowOnly, READ_METHODS, sendError, sendUnexpectedError } from './errorResponses.js';
import { readJsonBody } from './jsonBody.js';

const CHECKIN_PATH = '/devices/v1/checkin';
const JWKS_PATH = '/devices/v1/jwks.json';

/** The rate limits' name of a device: no API key id has this shape, so no key is charged for it. */
const deviceQuotaName = (partnerId: string, deviceId: string) => `device:${partnerId}:${deviceId}`;

export function createDeviceDoor(
  service: ServiceDeps & { policies: PartnerPolicies },
  signer: DeviceSigner,
): express.Router {
  const { db, limiter, policies } = service;

  async function checkin(req: Request, res: Response): Promise<void> {
    const address = req.ip ?? null;
    await limiter?.refuseBlockedAddress(address);
    // A header that is not "Bearer <one word>" is every door's 401 (http/credentials.ts); a malformed
    // credential is refused by its checksum, before any read.
    const credential = bearerCredential(req.get('authorization'), 'device credential');
    const device = credential && couldBeDeviceCredential(credential) ? await deviceOfCredential(db, credential) : null;
    if (!device) {
      await limiter?.recordAuthFailure(address);
      throw invalidDeviceCredential();
    }
    const admission = await limiter?.admitKey(address, deviceQuotaName(device.partnerId, device.deviceId));
    if (admission?.refusal) {
      // The limiter speaks of API keys; this door's caller is a device (or its address, when blocked).
      const retryAfter = Number(admission.refusal.extensions.retryAfter ?? 1);
      throw rateLimited('too many check-ins from this device or address', retryAfter);
    }
    const report = parseCheckinReport(await readJsonBody(req, res));
    const outcome = await checkIn(db, device, report, {
      now: policies.nowFor(device.partnerId),
      settings: policies.settingsFor(device.partnerId),
      origin: { clientAddress: address, requestId: (res.locals.requestId as string | undefined) ?? null },
    });
    if ('refused' in outcome) throw outcome.refused;
    res.json({ data: outcome.data, signature: await signer.sign(outcome.data) });
  }

  const router = express.Router();
  router.all(CHECKIN_PATH, allowOnly(CHECKIN_PATH, ['POST']), (req, res) => {
    res.locals.route = CHECKIN_PATH;
    checkin(req, res).catch((error: unknown) => {
      if (error instanceof AppError) return sendError(res, 'devices', error);
      sendUnexpectedError(res, 'devices', error, service, CHECKIN_PATH);
    });
  });
  router.all(JWKS_PATH, allowOnly(JWKS_PATH, READ_METHODS), (_req, res) => {
    res.locals.route = JWKS_PATH;
    // Devices fetch the set now and then; an hour's caching keeps a rotation's overlap ample.
    res.set('Cache-Control', 'public, max-age=3600');
    res.json(signer.keySet);
  });
  return router;
}
