// The check-in answer's signature (docs/decisions.md 19): a compact JWS made with `jose`, EdDSA over
// Ed25519, its payload the UTF-8 JSON text of the answer's data, its `kid` a key of the published set
// (GET /devices/v1/jwks.json). Keys rotate like the token signing keys: the first signs, all are
// published, so a device holds the next key before it signs anything. The protected header names what
// is signed (`typ`, decisions.md 34): a device takes nothing else for a check-in answer.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { CompactSign } from 'jose';

/** A configured signing key: its id and its Ed25519 private key (PKCS#8 DER, base64url). */
export interface DeviceSigningKey {
  id: string;
  secret: string;
}

/** A published public key, as RFC 7517 writes it. */
interface PublicJwk {
  kty: string;
  crv: string;
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

export interface DeviceSigner {
  /** A compact JWS whose payload is `JSON.stringify(data)`, typed as a check-in answer. */
  sign(data: unknown): Promise<string>;
  /** Every configured key's public half: the JWK set devices verify with. */
  readonly keySet: { keys: PublicJwk[] };
}

const DEVICE_SIGNING_ALG = 'EdDSA';
/** The protected header's `typ` of a check-in answer (RFC 8725 3.11, explicit typing; `application/` left out). */
const CHECKIN_ANSWER_TYPE = 'dfs-checkin+jws';

/** A new Ed25519 key outside production, when none is configured (never in production: config.ts refuses). */
export function generateDeviceSigningKey(id = 'dev'): DeviceSigningKey {
  const { privateKey } = generateKeyPairSync('ed25519');
  return { id, secret: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64url') };
}

function privateKeyOf(key: DeviceSigningKey): KeyObject {
  return createPrivateKey({ key: Buffer.from(key.secret, 'base64url'), format: 'der', type: 'pkcs8' });
}

export function createDeviceSigner(keys: readonly DeviceSigningKey[]): DeviceSigner {
  if (keys.length === 0) throw new Error('no device signing key is configured');
  const loaded = keys.map((key) => ({ id: key.id, privateKey: privateKeyOf(key) }));
  const signing = loaded[0]!;
  const keySet = {
    keys: loaded.map(({ id, privateKey }) => {
      const jwk = createPublicKey(privateKey).export({ format: 'jwk' }) as { kty: string; crv: string; x: string };
      return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid: id, alg: DEVICE_SIGNING_ALG, use: 'sig' } as PublicJwk;
    }),
  };
  return {
    keySet,
    sign: (data) =>
      new CompactSign(new TextEncoder().encode(JSON.stringify(data)))
        .setProtectedHeader({ alg: DEVICE_SIGNING_ALG, kid: signing.id, typ: CHECKIN_ANSWER_TYPE })
        .sign(signing.privateKey),
  };
}
