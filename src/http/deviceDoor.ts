// The device door (docs/decisions.md 19): POST /devices/v1/checkin, where a device's lock agent presents
// its credential and what it sees, and is answered its lock state signed; GET /devices/v1/jwks.json,
// the keys that verify those answers. A device credential opens this door only, and this door takes
// nothing else. Errors are rendered by the one renderer, in this door's body.
import express, { type Request, type RequestHandler, type Response } from 'express';
import { AppError, invalidDeviceCredential, rateLimited } from '../kernel/errors.js';
import { checkIn, parseCheckinReport } from '../modules/deviceDoor/checkin.js';
import { couldBeDeviceCredential, deviceOfCredential } from '../modules/deviceDoor/credentials.js';
import type { DeviceSigner } from '../modules/deviceDoor/signing.js';
import type { PartnerPolicies } from '../modules/partners/policies.js';
import type { ServiceDeps } from '../pipeline/context.js';
import { sendError, sendUnexpectedError } from './errorResponses.js';
import { readJsonBody } from './jsonBody.js';

export const CHECKIN_PATH = '/devices/v1/checkin';
export const JWKS_PATH = '/devices/v1/jwks.json';

const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;

/** The credential of an Authorization header, or null: a malformed header is no credential here. */
function presentedCredential(req: Request): string | null {
  return BEARER.exec(req.get('authorization') ?? '')?.[1] ?? null;
}

/** The rate limits' name of a device: no API key id has this shape, so no key is charged for it. */
const deviceQuotaName = (partnerId: string, deviceId: string) => `device:${partnerId}:${deviceId}`;

/** Answers `methods` on `path`; any other is 405 with Allow, in the door's body. */
function only(path: string, methods: readonly string[]): RequestHandler {
  return (req, res, next) => {
    if (methods.includes(req.method)) return next();
    res.set('Allow', methods.join(', '));
    const message = `${path} accepts ${methods.join(' or ')} only, not ${req.method}`;
    sendError(res, 'devices', new AppError('METHOD_NOT_ALLOWED', message));
  };
}

export function createDeviceDoor(
  service: ServiceDeps & { policies: PartnerPolicies },
  signer: DeviceSigner,
): express.Router {
  const { db, limiter, policies } = service;

  async function checkin(req: Request, res: Response): Promise<void> {
    const address = req.ip ?? null;
    await limiter?.refuseBlockedAddress(address);
    const credential = presentedCredential(req);
    // A malformed credential is refused by its checksum, before any read.
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
  router.all(CHECKIN_PATH, only(CHECKIN_PATH, ['POST']), (req, res) => {
    res.locals.route = CHECKIN_PATH;
    checkin(req, res).catch((error: unknown) => {
      if (error instanceof AppError) return sendError(res, 'devices', error);
      sendUnexpectedError(res, 'devices', error, service, CHECKIN_PATH);
    });
  });
  router.all(JWKS_PATH, only(JWKS_PATH, ['GET', 'HEAD']), (_req, res) => {
    res.locals.route = JWKS_PATH;
    // Devices fetch the set now and then; an hour's caching keeps a rotation's overlap ample.
    res.set('Cache-Control', 'public, max-age=3600');
    res.json(signer.keySet);
  });
  return router;
}
